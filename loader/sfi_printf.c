/* sfi_printf.c - interceptors of the printf family (sfi_intercept.h): the
 * format, every string a %s reads (to its NUL or its precision), every
 * %n target, the output buffer (snprintf: all n bytes; sprintf: as many
 * as the output needs, measured first) or the stream, and asprintf's
 * result pointer. A scan of the format finds each %s and %n, its
 * argument and precision; glibc's parse_printf_format (only for a format
 * with a %s or %n, or a conversion the scan does not know: no other takes
 * the caller's memory) gives the arguments' types, which must agree. */
#define _GNU_SOURCE
#include "heap.h"
#include "sfi_intercept.h"
#include "../rt/procmaps.h"

#include <sys/mman.h>
#include "sfi_streams.h"

#include <printf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>


/* A format's arguments and its %s/%n checked at most; most formats fit
 * the small sizes, whose state the scratch area clears faster. */
enum { MAX_ARGS = 256, MAX_MEM_CONVS = 64, SMALL_ARGS = 16, SMALL_MEM = 8 };

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

/* The arguments' types (glibc's parse_printf_format) and values. */
struct format_args {
  const char *fmt;
  va_list ap; /* a copy of the call's copy */
  size_t n, max;
  int *types;   /* [max] */
  uintptr_t *v; /* [max] */
};

static _Noreturn void refuse_format(const char *fmt, const char *why);

/* glibc leaves the types of positions no conversion uses unwritten (and
 * reads them as ints): those formats are refused, not checked with
 * whatever the array held. `count` is how many arguments the scan found:
 * glibc must find as many (only those entries are set first: a memset of
 * the whole array was most of the check's time). */
static void fetch_types(struct format_args *a, size_t count) {
  for (size_t i = 0; i < count && i < a->max; ++i)
    a->types[i] = -1;
  size_t n = parse_printf_format(a->fmt, a->max, a->types);
  if (n > a->max)
    refuse_format(a->fmt, "more arguments than can be checked");
  if (n != count)
    refuse_format(a->fmt, "its conversions cannot be followed");
  for (size_t i = 0; i < n; ++i)
    if (a->types[i] == -1)
      refuse_format(a->fmt, "a positional argument no conversion uses");
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

/* A %n's target, for the bytes it stores (its strings are checked as
 * they are copied: copy_strings). */
static void check_store(const struct mem_conv *c, const struct format_args *a) {
  if (c->conv == 'n')
    SFI_WRITE(a->v[c->idx], c->size);
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
struct format_check {
  unsigned char *cls;   /* [a.max] */
  struct mem_conv *mem; /* [max_mem] */
  size_t nmem, max_mem, next, count;
  int odd;
  struct format_args a;
};

/* Scratch for a check of up to args arguments and mem %s/%n, its arrays
 * after it; NULL as sfi_scratch. */
static struct format_check *check_state(const char *call, size_t args,
                                        size_t mem) {
  struct format_check *k =
      sfi_scratch(call, sizeof *k + args * (sizeof *k->a.v + sizeof *k->a.types +
                                            sizeof *k->cls) +
                            mem * sizeof *k->mem);
  if (!k)
    return NULL;
  k->a.v = (uintptr_t *)(k + 1);
  k->mem = (struct mem_conv *)(k->a.v + args);
  k->a.types = (int *)(k->mem + mem);
  k->cls = (unsigned char *)(k->a.types + args);
  k->a.max = args;
  k->max_mem = mem;
  k->nmem = k->next = k->count = 0;
  k->odd = 0;
  return k;
}

/* Finds fmt's conversions (k's cls, mem, count, odd); 1 when they need
 * more arguments or %s/%n than k holds. */
static int scan_format(const char *fmt, struct format_check *k) {
  /* cls[] is set as far as count reaches (ARG_NONE up to an index taken).
   * One argument taken as two kinds (%1$f%1$s%1$f) is refused: glibc
   * reads it as its last use's type and prints a double's bits as a
   * string's address; %1$d...%1$hhn stored through an int's 32 bits and
   * the upper half of a previous call's leftovers (attack round 9). */
#define TAKE(i, what)                                                          \
  do {                                                                         \
    if ((i) >= k->a.max)                                                       \
      return 1;                                                                \
    for (; k->count <= (i); ++k->count)                                        \
      k->cls[k->count] = ARG_NONE;                                             \
    if (k->cls[i] != ARG_NONE && k->cls[i] != (what))                          \
      refuse_format(fmt, "an argument used as two kinds");                     \
    k->cls[i] = (what);                                                        \
  } while (0)
  size_t convs = 0; /* every %, %% too, as glibc's positional path has */
  int positional = 0;
  for (const char *p = fmt; *p; ++p) {
    if (*p != '%')
      continue;
    ++convs;
    if (*++p == '%')
      continue;
    size_t pos = sfi_format_position(&p);
    positional |= pos != 0;
    while (is_flag(*p))
      ++p;
    if (*p == '*') {
      ++p;
      size_t at = sfi_format_position(&p);
      size_t w = at ? at - 1 : k->next++;
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
        prec_idx = at ? at - 1 : k->next++;
        TAKE(prec_idx, ARG_OTHER);
      } else {
        size_t digits = sfi_format_digits(&p);
        if (digits == SIZE_MAX) /* glibc: no precision, or EOVERFLOW */
          refuse_format(fmt, "a precision past INT_MAX");
        prec = (long)digits;
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
    if (conv == 'm') { /* strerror(errno): no argument */
      if (heap_serves_domain()) /* its translation is libc's state */
        refuse_format(fmt, "%m from a domain with a heap of its own "
                           "(strerror gives its message)");
      continue;
    }
    if (conv == '%' || (!is_value_conversion(conv) && conv != 's' &&
                        conv != 'S' && conv != 'n')) {
      k->odd = 1; /* no argument for glibc: `%5%`, unknown ones */
      continue;
    }
    size_t idx = pos ? pos - 1 : k->next++;
    if (is_value_conversion(conv)) {
      TAKE(idx, ARG_OTHER);
      continue;
    }
    TAKE(idx, conv == 'n' ? ARG_STORE : ARG_STRING);
    if (k->nmem == k->max_mem)
      return 1;
    k->mem[k->nmem++] = (struct mem_conv){
        .idx = idx,
        .conv = conv,
        .wide = conv == 'S' || wide_mod,
        .size = longs ? 8 : shorts >= 2 ? 1 : shorts == 1 ? 2 : 4,
        .prec = prec,
        .prec_idx = prec_idx};
  }
#undef TAKE
  /* glibc's positional path keeps the conversions (some 64 bytes each)
   * and the arguments' values (24 bytes each) past 1 KiB of its stack in
   * malloc'd memory: for a domain with a heap of its own, in that heap,
   * where a second thread rewrote a saved %s pointer to vault's secret
   * while libc wrote to a full pipe (e2e/attack-sfi-printf-positional.c). */
  if (positional && (convs > 12 || k->count > 32) && heap_serves_domain())
    refuse_format(fmt, "a positional format with more than 12 conversions "
                       "or 32 arguments from a domain with a heap of its "
                       "own (glibc's work area would lie in that heap)");
  return 0;
}

/* The bytes conversion c may read of its string: its precision, or all. */
static size_t conv_max(const struct mem_conv *c, const struct format_args *a) {
  long prec = c->prec_idx != SIZE_MAX ? (long)(int)a->v[c->prec_idx] : c->prec;
  return prec >= 0 ? (size_t)prec : SIZE_MAX;
}

/* Each %s and %ls argument's string, checked (to its NUL or the
 * precision) and copied into the scratch area, libc getting the copy in
 * place of the argument in the copied va_list ap: glibc reads a
 * string again as it prints it, and a second thread of the domain that
 * moved its NUL after the check had it print past the bytes checked
 * (vault's secret, after the domain's own bytes at its page's end). An
 * argument several conversions take gets one copy, of the longest they
 * read. 0, or -1 (errno set). */
static int copy_strings(const char *call, struct format_check *k, sfi_va ap) {
  struct format_args *a = &k->a;
  for (size_t i = 0; i < k->nmem; ++i) {
    const struct mem_conv *c = &k->mem[i];
    if (c->conv == 'n' || !a->v[c->idx])
      continue;
    size_t max = 0, j = 0;
    int wide = -1, first = 1;
    for (; j < k->nmem; ++j) {
      const struct mem_conv *d = &k->mem[j];
      if (d->idx != c->idx || d->conv == 'n')
        continue;
      if (j < i)
        first = 0; /* copied already */
      size_t m = conv_max(d, a);
      max = m > max ? m : max;
      if (wide >= 0 && wide != d->wide)
        refuse_format(a->fmt, "a string argument read both wide and narrow");
      wide = d->wide;
    }
    if (!first)
      continue;
    const void *s = (const void *)a->v[c->idx];
    void *copy;
    size_t len;
    if (wide) { /* measured once, checked whole (its precision counts
                 * bytes out, not characters in): what is copied */
      len = wcslen(s);
      SFI_READ(s, sfi_array_size(len + 1, sizeof(wchar_t)));
      copy = sfi_scratch(call, (len + 1) * sizeof(wchar_t));
      if (copy) {
        memcpy(copy, s, len * sizeof(wchar_t));
        ((wchar_t *)copy)[len] = 0;
      }
    } else {
      copy = sfi_string_in(call, s, max, &len);
    }
    if (!copy)
      return -1;
    *sfi_va_slot(ap, a->types, c->idx) = (uintptr_t)copy;
  }
  return 0;
}

int sfi_check_format(const char *call, struct sfi_format *f) {
  size_t len;
  const char *fmt = sfi_string_in(call, f->fmt, SIZE_MAX, &len);
  if (!fmt)
    return -1;
  f->fmt = fmt;
  f->copy = (void *)fmt;
  f->has_n = 0;
  /* The check's own state in the scratch area too, not on this thread's
   * stack, which another thread of the domain can write (an attack round
   * rewrote a fetched argument between its fetch and its check): small,
   * or, for a format that needs more, the largest. */
  struct format_check *k = check_state(call, SMALL_ARGS, SMALL_MEM);
  if (k && scan_format(fmt, k)) {
    sfi_copy_done(k);
    k = check_state(call, MAX_ARGS, MAX_MEM_CONVS);
    if (k && scan_format(fmt, k))
      refuse_format(fmt, "too many arguments or %s and %n to check");
  }
  if (!k) {
    sfi_format_done(f);
    return -1;
  }
  for (size_t i = 0; i < k->nmem; ++i)
    f->has_n |= k->mem[i].conv == 'n';
  /* libc reads the arguments of the copy's conversions from a copy too,
   * whatever they are (a %lx of a stack slot rewritten meanwhile). */
  struct format_args *a = &k->a;
  a->fmt = fmt;
  fetch_types(a, k->count);
  if (!(f->ap = sfi_va_in(call, f->ap, a->types, a->n))) {
    sfi_format_done(f);
    return -1;
  }
  if (!k->nmem && !k->odd)
    return 0; /* no conversion takes the caller's memory */
  va_copy(a->ap, f->ap);
  fetch(a->types, a->n, a->ap, a->v);
  va_end(a->ap);
  int agree = a->n == k->count;
  for (size_t i = 0; agree && i < a->n; ++i)
    agree = glibc_class(a->types[i]) ==
            (k->cls[i] == ARG_NONE ? ARG_OTHER : k->cls[i]);
  if (!agree)
    refuse_format(fmt, "its conversions cannot be followed");
  for (size_t i = 0; i < k->nmem; ++i)
    check_store(&k->mem[i], a);
  if (copy_strings(call, k, f->ap) != 0) {
    sfi_format_done(f);
    return -1;
  }
  return 0;
}

/* Whether the mapping holding *at is writable (*at then 0). */
static int writable_mapping(const struct dipc_mapping *m, void *at) {
  uintptr_t *a = at;
  if (*a < m->lo || *a >= m->hi)
    return 0;
  *a = 0;
  return m->prot & PROT_WRITE ? 1 : 2;
}

/* Whether the page at p is writable, as /proc/self/maps shows (not read
 * through stdio: procmaps.c). */
static int writable(const void *p) {
  uintptr_t at = (uintptr_t)p;
  /* unmapped, or maps unreadable: as writable */
  return dipc_maps_each(writable_mapping, &at) != 2;
}

int sfi_fortify_flag(const char *call, const struct sfi_format *c,
                     const char *fmt, int flag) {
  if (flag <= 0 || !c->has_n)
    return flag;
  if (writable(fmt)) {
    fprintf(stderr, "*** %%n in writable segment detected *** (%s)\n", call);
    abort();
  }
  return 0;
}

void sfi_format_done(struct sfi_format *f) {
  if (f->copy)
    sfi_copy_done(f->copy);
  f->copy = NULL;
}

size_t sfi_output_size(const struct sfi_format *f) {
  va_list copy;
  va_copy(copy, f->ap);
  int len = NEXT(vsnprintf)(NULL, 0, f->fmt, copy);
  va_end(copy);
  return len < 0 ? 0 : (size_t)len + 1;
}

/* Each family: its checked path on the copies (FORMAT_CALL), which its
 * interceptors take for instrumented callers; sprintf's write is bounded
 * by the size checked (vsnprintf), whatever the arguments' strings became
 * since (a second thread removed a %s argument's NUL after the output was
 * measured). */

/* vfprintf on the stream r libc is to use for f (sfi_stream_of). */
static int stream_vfprintf(FILE *f, FILE *r, const char *fmt, sfi_va ap) {
  int v = NEXT(vfprintf)(r, fmt, ap);
  sfi_stream_sync(f, r);
  return v;
}

static int checked_vfprintf(const char *call, FILE *f, const char *fmt,
                            sfi_va ap) {
  struct sfi_format c = {.fmt = fmt, .ap = ap};
  FILE *r;
  FORMAT_CALL(call, c, r = sfi_stream_of(f, 1),
              stream_vfprintf(f, r, c.fmt, c.ap));
}

SFI_EXPORT int vfprintf(FILE *f, const char *fmt, va_list ap) {
  return SFI_CHECKED() ? checked_vfprintf("vfprintf", f, fmt, ap)
                       : stream_vfprintf(f, sfi_stream_of(f, 0), fmt, ap);
}

SFI_EXPORT int fprintf(FILE *f, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = SFI_CHECKED() ? checked_vfprintf("fprintf", f, fmt, ap)
                        : stream_vfprintf(f, sfi_stream_of(f, 0), fmt, ap);
  va_end(ap);
  return r;
}

SFI_EXPORT int vprintf(const char *fmt, va_list ap) {
  return SFI_CHECKED() ? checked_vfprintf("vprintf", stdout, fmt, ap)
                       : NEXT(vprintf)(fmt, ap);
}

SFI_EXPORT int printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = SFI_CHECKED() ? checked_vfprintf("printf", stdout, fmt, ap)
                        : NEXT(vprintf)(fmt, ap);
  va_end(ap);
  return r;
}

static int checked_vdprintf(const char *call, int fd, const char *fmt,
                            sfi_va ap) {
  struct sfi_format c = {.fmt = fmt, .ap = ap};
  FORMAT_CALL(call, c, (void)0, NEXT(vdprintf)(fd, c.fmt, c.ap));
}

SFI_EXPORT int vdprintf(int fd, const char *fmt, va_list ap) {
  return SFI_CHECKED() ? checked_vdprintf("vdprintf", fd, fmt, ap)
                       : NEXT(vdprintf)(fd, fmt, ap);
}

SFI_EXPORT int dprintf(int fd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = SFI_CHECKED() ? checked_vdprintf("dprintf", fd, fmt, ap)
                        : NEXT(vdprintf)(fd, fmt, ap);
  va_end(ap);
  return r;
}

static int checked_vsnprintf(const char *call, char *buf, size_t size,
                             const char *fmt, sfi_va ap) {
  struct sfi_format c = {.fmt = fmt, .ap = ap};
  FORMAT_CALL(call, c, SFI_WRITE(buf, size),
              NEXT(vsnprintf)(buf, size, c.fmt, c.ap));
}

SFI_EXPORT int vsnprintf(char *buf, size_t size, const char *fmt,
                         va_list ap) {
  return SFI_CHECKED() ? checked_vsnprintf("vsnprintf", buf, size, fmt, ap)
                       : NEXT(vsnprintf)(buf, size, fmt, ap);
}

SFI_EXPORT int snprintf(char *buf, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = SFI_CHECKED() ? checked_vsnprintf("snprintf", buf, size, fmt, ap)
                        : NEXT(vsnprintf)(buf, size, fmt, ap);
  va_end(ap);
  return r;
}

static int checked_vsprintf(const char *call, char *buf, const char *fmt,
                            sfi_va ap) {
  struct sfi_format c = {.fmt = fmt, .ap = ap};
  size_t size = 0;
  FORMAT_CALL(call, c, (size = sfi_output_size(&c), SFI_WRITE(buf, size)),
              NEXT(vsnprintf)(buf, size, c.fmt, c.ap));
}

SFI_EXPORT int vsprintf(char *buf, const char *fmt, va_list ap) {
  return SFI_CHECKED() ? checked_vsprintf("vsprintf", buf, fmt, ap)
                       : NEXT(vsprintf)(buf, fmt, ap);
}

SFI_EXPORT int sprintf(char *buf, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = SFI_CHECKED() ? checked_vsprintf("sprintf", buf, fmt, ap)
                        : NEXT(vsprintf)(buf, fmt, ap);
  va_end(ap);
  return r;
}

static int checked_vasprintf(const char *call, char **out, const char *fmt,
                             sfi_va ap) {
  struct sfi_format c = {.fmt = fmt, .ap = ap};
  FORMAT_CALL(call, c, SFI_WRITE(out, sizeof *out),
              NEXT(vasprintf)(out, c.fmt, c.ap));
}

SFI_EXPORT int vasprintf(char **out, const char *fmt, va_list ap) {
  return SFI_CHECKED() ? checked_vasprintf("vasprintf", out, fmt, ap)
                       : NEXT(vasprintf)(out, fmt, ap);
}

SFI_EXPORT int asprintf(char **out, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = SFI_CHECKED() ? checked_vasprintf("asprintf", out, fmt, ap)
                        : NEXT(vasprintf)(out, fmt, ap);
  va_end(ap);
  return r;
}
