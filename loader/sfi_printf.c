/* sfi_printf.c - interceptors of the printf family (sfi_intercept.h): the
 * format, every string a %s reads (to its NUL or its precision), every
 * %n target, the output buffer (snprintf: all n bytes; sprintf: as many
 * as the output needs, measured first) or the stream, and asprintf's
 * result pointer. The arguments' types come from glibc's
 * parse_printf_format (only for a format with a %s or %n: no other
 * conversion takes the caller's memory); where each %s and %n takes its
 * argument, and its precision, from a scan of the format done here the
 * same way. */
#define _GNU_SOURCE
#include "sfi_intercept.h"

#include <printf.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>


enum { MAX_ARGS = 256 };

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

static void check_conversion(char conv, int longs, int shorts, int wide_mod,
                             struct format_args *a, size_t idx, long prec,
                             size_t prec_idx) {
  if (conv != 's' && conv != 'S' && conv != 'n')
    return; /* reads and writes none of the caller's memory */
  fetch_args(a);
  if (idx >= a->n)
    return;
  uintptr_t v = a->v[idx];
  if (prec_idx != SIZE_MAX) /* .*: the precision is an argument */
    prec = prec_idx < a->n ? (long)(int)a->v[prec_idx] : -1;
  size_t max = prec >= 0 ? (size_t)prec : SIZE_MAX;
  if (conv == 's' && !wide_mod && v) {
    sfi_read_string((const char *)v, max);
  } else if ((conv == 'S' || (conv == 's' && wide_mod)) && v) {
    size_t len = wcslen((const wchar_t *)v); /* precision counts bytes out */
    SFI_READ(v, (len + 1) * sizeof(wchar_t));
  } else if (conv == 'n') {
    size_t size = longs ? 8 : shorts == 2 ? 1 : shorts == 1 ? 2 : 4;
    SFI_WRITE(v, size);
  }
}

static int is_flag(char c) {
  return c == '-' || c == '+' || c == ' ' || c == '#' || c == '0' ||
         c == '\'' || c == 'I';
}

void sfi_check_format(const char *fmt, va_list ap) {
  sfi_read_string(fmt, SIZE_MAX);
  struct format_args a;
  a.fmt = fmt;
  va_copy(a.ap, ap);
  a.n = SIZE_MAX;
  size_t next = 0;
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
      if (!sfi_format_position(&p))
        ++next;
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
      } else {
        prec = (long)sfi_format_digits(&p);
      }
    }
    int longs = 0, shorts = 0, wide_mod = 0;
    for (;; ++p) {
      if (*p == 'l')
        ++longs, wide_mod = 1;
      else if (*p == 'L' || *p == 'q' || *p == 'j' || *p == 'z' ||
               *p == 'Z' || *p == 't')
        ++longs;
      else if (*p == 'h')
        ++shorts;
      else
        break;
    }
    if (!*p)
      break;
    if (*p == 'm') /* strerror(errno): no argument */
      continue;
    size_t idx = pos ? pos - 1 : next++;
    check_conversion(*p, longs, shorts, wide_mod, &a, idx, prec, prec_idx);
  }
  va_end(a.ap);
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
