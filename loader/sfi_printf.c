/* sfi_printf.c - interceptors of the printf family (sfi_intercept.h): the
 * format, every string a %s reads (to its NUL or its precision), every
 * %n target, the output buffer (snprintf: all n bytes; sprintf: as many
 * as the output needs, measured first) or the stream, and asprintf's
 * result pointer. A scan of the format finds each %s and %n, its
 * argument and precision; glibc's parse_printf_format (only for a format
 * with a %s or %n, or a conversion the scan does not know: no other takes
 * the caller's memory) gives the arguments' types, which must agree. */
#define _GNU_SOURCE
#include "sfi_intercept.h"

#include <printf.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>


enum { MAX_ARGS = 256, MAX_MEM_CONVS = 64 };

/* The arguments as integers or pointers (floating-point ones skipped),
 * fetched in order with the types parse_printf_format gives. */
static void fetch(const int *types, size_t n, va_list ap, uintptr_t *out) {
  for (size_t i = 0; i < n; ++i) {
    int base = types[i] & ~PA_FLAG_MASK;
    if (base == PA_DOUBLE || base == PA_FLOAT) {
      if (types[i] & PA_FLAG_LONG_DOUBLE)
        (void)va_arg(ap, long double);
      else
        (void)va_arg(ap, double);
      out[i] = 0;
    } else {
      out[i] = va_arg(ap, uintptr_t); /* int-sized ones fill a slot too */
    }
  }
}

/* The arguments, fetched on the first conversion that needs them: a
 * format without %s or %n (most) takes no argument's memory, and glibc's
 * parse_printf_format costs more than the rest of the check. */
struct format_args {
  const char *fmt;
  va_list ap; /* a copy of the caller's */
  size_t n; /* SIZE_MAX: not fetched yet */
  int types[MAX_ARGS];
  uintptr_t v[MAX_ARGS];
};

static void fetch_args(struct format_args *a) {
  if (a->n != SIZE_MAX)
    return;
  size_t n = parse_printf_format(a->fmt, MAX_ARGS, a->types);
  if (n > MAX_ARGS) {
    fprintf(stderr, "dipc: sfi: a printf format with more than %d "
            "arguments cannot be checked\n", MAX_ARGS);
    SFI_READ(a->fmt, UINT64_MAX); /* refused as an access */
  }
  va_list copy;
  va_copy(copy, a->ap);
  fetch(a->types, n, copy, a->v);
  va_end(copy);
  a->n = n;
}

/* One conversion that takes the caller's memory, as the scan sees it. */
struct mem_conv {
  size_t idx;      /* its argument */
  char conv;       /* s, S or n */
  unsigned char wide;
  unsigned char size; /* %n: bytes stored */
  long prec;          /* -1: none */
  size_t prec_idx;    /* .*: the precision's argument, SIZE_MAX: none */
};

/* What the scan says each argument is, to hold against glibc's types. */
enum { ARG_NONE, ARG_OTHER, ARG_STRING, ARG_STORE };

static int glibc_class(int type) {
  if (type & PA_FLAG_PTR)
    return ARG_STORE; /* %n's int, short, char, long pointer */
  int base = type & ~PA_FLAG_MASK;
  return base == PA_STRING || base == PA_WSTRING ? ARG_STRING : ARG_OTHER;
}

static void check_conversion(const struct mem_conv *c, struct format_args *a) {
  uintptr_t v = a->v[c->idx];
  long prec = c->prec;
  if (c->prec_idx != SIZE_MAX) /* .*: the precision is an argument */
    prec = (long)(int)a->v[c->prec_idx];
  size_t max = prec >= 0 ? (size_t)prec : SIZE_MAX;
  if (c->conv == 'n') {
    SFI_WRITE(v, c->size);
  } else if (!v) {
    return; /* glibc prints "(null)" */
  } else if (c->wide) {
    size_t len = wcslen((const wchar_t *)v); /* precision counts bytes out */
    SFI_READ(v, (len + 1) * sizeof(wchar_t));
  } else {
    sfi_read_string((const char *)v, max);
  }
}

static int is_flag(char c) {
  return c == '-' || c == '+' || c == ' ' || c == '#' || c == '0' ||
         c == '\'' || c == 'I';
}

/* Conversions that take an argument and none of the caller's memory. */
static int is_value_conversion(char c) {
  return c && strchr("diouxXbBeEfFgGaAcCp", c) != NULL;
}

static _Noreturn void refuse_format(const char *fmt, const char *why) {
  fprintf(stderr, "dipc: sfi: printf format \"%.64s\" refused: %s\n", fmt,
          why);
  SFI_READ(fmt, UINT64_MAX); /* refused as an access */
  __builtin_unreachable();
}

/* The format's %s, %S and %n, each with the argument the scan gives it.
 * The scan only finds them: which arguments glibc reads as strings or
 * stores through is glibc's parse_printf_format, and a scan that does not
 * agree with it (a conversion read another way: `%5%`, an unknown or a
 * registered one) refuses the format rather than check other arguments
 * than those glibc uses. */
void sfi_check_format(const char *fmt, va_list ap) {
  sfi_read_string(fmt, SIZE_MAX);
  unsigned char cls[MAX_ARGS];
  struct mem_conv mem[MAX_MEM_CONVS];
  size_t nmem = 0, next = 0, count = 0;
  int odd = 0;
  memset(cls, ARG_NONE, sizeof cls);
#define TAKE(i, what)                                                          \
  do {                                                                         \
    if ((i) >= MAX_ARGS)                                                       \
      refuse_format(fmt, "too many arguments to check");                      \
    if (cls[i] == ARG_NONE || cls[i] == (what))                                \
      cls[i] = (what);                                                         \
    else                                                                       \
      odd = 1;                                                                 \
    count = (i) + 1 > count ? (i) + 1 : count;                                 \
  } while (0)
  for (const char *p = fmt; *p; ++p) {
    if (*p != '%')
      continue;
    if (*++p == '%')
      continue;
    size_t pos = sfi_format_position(&p);
    while (is_flag(*p))
      ++p;
    if (*p == '*') {
      ++p;
      size_t at = sfi_format_position(&p);
      size_t w = at ? at - 1 : next++;
      TAKE(w, ARG_OTHER);
    } else {
      sfi_format_digits(&p);
    }
    long prec = -1;
    size_t prec_idx = SIZE_MAX;
    if (*p == '.') {
      ++p;
      if (*p == '*') {
        ++p;
        size_t at = sfi_format_position(&p);
        prec_idx = at ? at - 1 : next++;
        TAKE(prec_idx, ARG_OTHER);
      } else {
        prec = (long)sfi_format_digits(&p);
      }
    }
    /* glibc: l, L, q, j, z, Z and t make %s and %c wide (is_long) */
    int longs = 0, shorts = 0, wide_mod = 0;
    for (;; ++p) {
      if (*p == 'l' || *p == 'L' || *p == 'q' || *p == 'j' || *p == 'z' ||
          *p == 'Z' || *p == 't')
        ++longs, wide_mod = 1;
      else if (*p == 'h')
        ++shorts;
      else
        break;
    }
    char conv = *p;
    if (!conv)
      break;
    if (conv == 'm')
      continue; /* strerror(errno): no argument */
    if (conv == '%' || (!is_value_conversion(conv) && conv != 's' &&
                        conv != 'S' && conv != 'n')) {
      odd = 1; /* no argument for glibc: `%5%`, unknown ones */
      continue;
    }
    size_t idx = pos ? pos - 1 : next++;
    if (is_value_conversion(conv)) {
      TAKE(idx, ARG_OTHER);
      continue;
    }
    TAKE(idx, conv == 'n' ? ARG_STORE : ARG_STRING);
    if (nmem == MAX_MEM_CONVS)
      refuse_format(fmt, "too many %s and %n to check");
    mem[nmem++] = (struct mem_conv){
        .idx = idx,
        .conv = conv,
        .wide = conv == 'S' || wide_mod,
        .size = longs ? 8 : shorts >= 2 ? 1 : shorts == 1 ? 2 : 4,
        .prec = prec,
        .prec_idx = prec_idx};
  }
#undef TAKE
  if (!nmem && !odd)
    return; /* no conversion takes the caller's memory */
  struct format_args a;
  a.fmt = fmt;
  va_copy(a.ap, ap);
  a.n = SIZE_MAX;
  fetch_args(&a);
  va_end(a.ap);
  int agree = a.n == count;
  for (size_t i = 0; agree && i < a.n; ++i)
    agree = glibc_class(a.types[i]) ==
            (cls[i] == ARG_NONE ? ARG_OTHER : cls[i]);
  if (!agree)
    refuse_format(fmt, "its conversions cannot be followed");
  for (size_t i = 0; i < nmem; ++i)
    check_conversion(&mem[i], &a);
}

size_t sfi_output_size(const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int len = NEXT(vsnprintf)(NULL, 0, fmt, copy);
  va_end(copy);
  return len < 0 ? 0 : (size_t)len + 1;
}

SFI_EXPORT int vfprintf(FILE *f, const char *fmt, va_list ap) {
  if (SFI_CHECKED()) {
    sfi_check_format(fmt, ap);
    sfi_check_file(f);
  }
  return NEXT(vfprintf)(f, fmt, ap);
}

SFI_EXPORT int fprintf(FILE *f, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (SFI_CHECKED()) {
    sfi_check_format(fmt, ap);
    sfi_check_file(f);
  }
  int r = NEXT(vfprintf)(f, fmt, ap);
  va_end(ap);
  return r;
}

SFI_EXPORT int vprintf(const char *fmt, va_list ap) {
  if (SFI_CHECKED()) {
    sfi_check_format(fmt, ap);
    sfi_check_file(stdout);
  }
  return NEXT(vprintf)(fmt, ap);
}

SFI_EXPORT int printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (SFI_CHECKED()) {
    sfi_check_format(fmt, ap);
    sfi_check_file(stdout);
  }
  int r = NEXT(vprintf)(fmt, ap);
  va_end(ap);
  return r;
}

SFI_EXPORT int vdprintf(int fd, const char *fmt, va_list ap) {
  if (SFI_CHECKED())
    sfi_check_format(fmt, ap);
  return NEXT(vdprintf)(fd, fmt, ap);
}

SFI_EXPORT int dprintf(int fd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (SFI_CHECKED())
    sfi_check_format(fmt, ap);
  int r = NEXT(vdprintf)(fd, fmt, ap);
  va_end(ap);
  return r;
}

SFI_EXPORT int vsnprintf(char *buf, size_t size, const char *fmt,
                         va_list ap) {
  if (SFI_CHECKED()) {
    sfi_check_format(fmt, ap);
    SFI_WRITE(buf, size);
  }
  return NEXT(vsnprintf)(buf, size, fmt, ap);
}

SFI_EXPORT int snprintf(char *buf, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (SFI_CHECKED()) {
    sfi_check_format(fmt, ap);
    SFI_WRITE(buf, size);
  }
  int r = NEXT(vsnprintf)(buf, size, fmt, ap);
  va_end(ap);
  return r;
}

SFI_EXPORT int vsprintf(char *buf, const char *fmt, va_list ap) {
  if (SFI_CHECKED()) {
    sfi_check_format(fmt, ap);
    SFI_WRITE(buf, sfi_output_size(fmt, ap));
  }
  return NEXT(vsprintf)(buf, fmt, ap);
}

SFI_EXPORT int sprintf(char *buf, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (SFI_CHECKED()) {
    sfi_check_format(fmt, ap);
    SFI_WRITE(buf, sfi_output_size(fmt, ap));
  }
  int r = NEXT(vsprintf)(buf, fmt, ap);
  va_end(ap);
  return r;
}

SFI_EXPORT int vasprintf(char **out, const char *fmt, va_list ap) {
  if (SFI_CHECKED()) {
    sfi_check_format(fmt, ap);
    SFI_WRITE(out, sizeof *out);
  }
  return NEXT(vasprintf)(out, fmt, ap);
}

SFI_EXPORT int asprintf(char **out, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (SFI_CHECKED()) {
    sfi_check_format(fmt, ap);
    SFI_WRITE(out, sizeof *out);
  }
  int r = NEXT(vasprintf)(out, fmt, ap);
  va_end(ap);
  return r;
}
