/* sfi_scanf.c - interceptors of the scanf family (sfi_intercept.h): the
 * format, the input string (sscanf) or the stream, and every argument
 * written, for the size its conversion stores: integers and floating
 * point by their length modifier, %c its width, %s and %[ their width
 * and a NUL. A %s or %[ without a width may write as much as the input
 * holds: sscanf's input's length, but from a stream no bound, so such a
 * conversion there is refused. Both the GNU names and C99's
 * (__isoc99_sscanf, which glibc's headers pick outside _GNU_SOURCE; %a
 * is then a float, not the allocation modifier). */
#define _GNU_SOURCE
#include "sfi_intercept.h"
#include "sfi_streams.h"

#include <printf.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#define UNBOUNDED SIZE_MAX

enum { MAX_ARGS = 256 };

/* What an argument receives from the conversions that take it: the most
 * bytes a bounded one stores, and whether a %s or %[ without a width
 * (wide or not) may store as much as the input holds. */
struct target {
  size_t bytes;
  unsigned char unbounded, wide;
};

static size_t store_size(char conv, int longs, int shorts, int big) {
  if (strchr("aAeEfFgG", conv)) /* glibc: ll is L there (long double) */
    return big || longs >= 2 ? 16 : longs ? 8 : 4;
  if (conv == 'p')
    return sizeof(void *);
  return longs || big ? 8 : shorts == 2 ? 1 : shorts == 1 ? 2 : 4;
}

/* One more conversion takes the argument: glibc stores each, so it
 * receives the most of them (%1$48c%1$c; %1$lld%1$s stores 8 bytes
 * however short the input). elements: a conversion's count (UNBOUNDED:
 * a string without a width), wide: of wchar_t. */
static void take(struct target *at, size_t elements, int wide) {
  if (elements == UNBOUNDED) {
    at->unbounded = 1;
    at->wide |= (unsigned char)wide;
    return;
  }
  size_t bytes = wide ? sfi_array_size(elements, sizeof(wchar_t)) : elements;
  at->bytes = bytes > at->bytes ? bytes : at->bytes;
}

/* What each argument receives; returns how many arguments there are,
 * SIZE_MAX for a format that cannot be checked. */
static size_t scan_format(const char *fmt, int gnu, struct target *t) {
  size_t next = 0, count = 0;
  for (const char *p = fmt; *p; ++p) {
    if (*p != '%')
      continue;
    if (*++p == '%')
      continue;
    /* As glibc: digits then '$' are a position (0: the next argument, not
     * a width: "%0$48c"), other digits the width, with no flags after. */
    size_t pos = 0, width = 0;
    int suppress = 0; /* glibc's flags: *, ' and I, in any order */
    if (*p >= '0' && *p <= '9') {
      size_t v = sfi_format_digits(&p);
      if (v == SIZE_MAX)
        return SIZE_MAX; /* glibc: past INT_MAX is none */
      if (*p != '$') {
        width = v;
        goto got_width;
      }
      ++p;
      pos = v;
    }
    for (; *p == '*' || *p == '\'' || *p == 'I'; ++p)
      suppress |= *p == '*';
    width = sfi_format_digits(&p);
    if (width == SIZE_MAX)
      return SIZE_MAX;
  got_width:;
    int alloc = *p == 'm' ||
                (gnu && *p == 'a' && p[1] && strchr("sS[", p[1]));
    p += alloc;
    int longs = 0, shorts = 0, big = 0;
    for (;; ++p) {
      if (*p == 'l')
        ++longs;
      else if (*p == 'L' || *p == 'q')
        big = 1;
      else if (*p == 'j' || *p == 'z' || *p == 't')
        longs = 1;
      else if (*p == 'h')
        ++shorts;
      else
        break;
    }
    char conv = *p;
    if (!conv)
      break;
    if (conv == '%')
      continue; /* `%5%`: a literal %, no argument */
    if (conv == '[') { /* the set runs to the next ']' after its first */
      p += p[1] == '^';
      p += p[1] == ']';
      while (p[1] && p[1] != ']')
        ++p;
      if (!p[1])
        break;
      ++p;
    }
    if (suppress)
      continue;
    size_t idx = pos ? pos - 1 : next++;
    if (idx >= MAX_ARGS)
      return SIZE_MAX;
    /* L and q are glibc's LONG too: %Lc, %qs store wchar_t */
    int wide = longs > 0 || big || conv == 'S' || conv == 'C';
    struct target *at = &t[idx];
    if (alloc)
      take(at, sizeof(char *), 0);
    else if (conv == 'c' || conv == 'C')
      take(at, width ? width : 1, wide);
    else if (conv == 's' || conv == 'S' || conv == '[')
      take(at, width ? width + 1 : UNBOUNDED, wide);
    else
      take(at, store_size(conv, longs, shorts, big), 0);
    count = idx + 1 > count ? idx + 1 : count;
  }
  return count;
}

/* A scanf call's format, sscanf's input and the arguments, as libc is to
 * read them: checked copies in the thread's scratch area (a second thread
 * rewrote a checked "%10c" into "%40c", or a target pointer, or removed
 * the input's NUL, before libc read them again). input: sscanf's string
 * (its length bounds a %s), NULL for a stream. 0, or -1 with errno set;
 * scanf_done gives the copies back. */
struct scanf_call {
  const char *fmt, *input;
  sfi_va ap;
  void *copy;
};

static void scanf_done(struct scanf_call *c) {
  if (c->copy)
    sfi_copy_done(c->copy);
  c->copy = NULL;
}

static int check_scanf(const char *call, struct scanf_call *c, int gnu) {
  size_t len, input_len = 0;
  const char *fmt = sfi_string_in(call, c->fmt, SIZE_MAX, &len);
  if (!fmt)
    return -1;
  c->fmt = fmt;
  c->copy = (void *)fmt;
  if (c->input &&
      !(c->input = sfi_string_in(call, c->input, SIZE_MAX, &input_len))) {
    scanf_done(c);
    return -1;
  }
  /* What each argument receives, in the scratch area too: not on this
   * thread's stack, which another thread of the domain can write. */
  struct target *t = sfi_scratch(call, MAX_ARGS * sizeof *t);
  if (!t) {
    scanf_done(c);
    return -1;
  }
  memset(t, 0, MAX_ARGS * sizeof *t);
  size_t n = scan_format(fmt, gnu, t);
  if (n == SIZE_MAX) {
    fprintf(stderr, "dipc: sfi: a scanf format with more than %d arguments "
            "cannot be checked\n", MAX_ARGS);
    SFI_READ(fmt, UINT64_MAX); /* refused as an access */
  }
  int types[MAX_ARGS];
  for (size_t i = 0; i < n; ++i)
    types[i] = PA_POINTER;
  if (!(c->ap = sfi_va_in(call, c->ap, types, n))) {
    scanf_done(c);
    return -1;
  }
  va_list copy;
  va_copy(copy, c->ap);
  for (size_t i = 0; i < n; ++i) {
    void *p = va_arg(copy, void *);
    size_t bytes = t[i].bytes;
    if (t[i].unbounded && !c->input) {
      fprintf(stderr, "dipc: sfi: a scanf %%s or %%[ without a width from a "
              "stream can write any length: refused\n");
      SFI_WRITE(p, UINT64_MAX);
    }
    if (t[i].unbounded) {
      size_t all = t[i].wide ? sfi_array_size(input_len + 1, sizeof(wchar_t))
                             : input_len + 1;
      bytes = all > bytes ? all : bytes;
    }
    if (bytes)
      SFI_WRITE(p, bytes);
  }
  va_end(copy);
  return 0;
}

/* glibc's headers name every scanf __isoc99_*: the GNU definitions are
 * declared by their symbol. Each family's checked path runs the real
 * function on the copies. */
typedef int string_scanf_fn(const char *, const char *, va_list);
typedef int stream_scanf_fn(FILE *, const char *, va_list);
typedef int stdin_scanf_fn(const char *, va_list);

#define SCANF_CALL(call, c, gnu, checks, real_call)                            \
  do {                                                                         \
    if (check_scanf(call, &c, gnu) != 0)                                       \
      return EOF;                                                              \
    checks;                                                                    \
    int r_ = real_call;                                                        \
    scanf_done(&c);                                                            \
    return r_;                                                                 \
  } while (0)

#define STRING_SCANF(name, vname, sym, vsym, gnu)                              \
  static int checked_##vname(const char *s, const char *fmt, sfi_va ap) {      \
    struct scanf_call c = {.fmt = fmt, .input = s, .ap = ap};                                  \
    SCANF_CALL(sym, c, gnu, (void)0,                                           \
               NEXT_AS(string_scanf_fn *, vsym)(c.input, c.fmt, c.ap));        \
  }                                                                            \
  SFI_EXPORT int vname(const char *s, const char *fmt, va_list ap)             \
      __asm__(vsym);                                                           \
  SFI_EXPORT int name(const char *s, const char *fmt, ...) __asm__(sym);       \
  int vname(const char *s, const char *fmt, va_list ap) {                      \
    return SFI_CHECKED() ? checked_##vname(s, fmt, ap)                         \
                         : NEXT_AS(string_scanf_fn *, vsym)(s, fmt, ap);       \
  }                                                                            \
  int name(const char *s, const char *fmt, ...) {                              \
    va_list ap;                                                                \
    va_start(ap, fmt);                                                         \
    int r = SFI_CHECKED() ? checked_##vname(s, fmt, ap)                        \
                          : NEXT_AS(string_scanf_fn *, vsym)(s, fmt, ap);      \
    va_end(ap);                                                                \
    return r;                                                                  \
  }
STRING_SCANF(gnu_sscanf, gnu_vsscanf, "sscanf", "vsscanf", 1)
STRING_SCANF(c99_sscanf, c99_vsscanf, "__isoc99_sscanf", "__isoc99_vsscanf", 0)

/* A stream scanf on the stream r libc is to use for f (sfi_stream_of). */
static int stream_scanf(stream_scanf_fn *fn, FILE *f, FILE *r,
                        const char *fmt, sfi_va ap) {
  int v = fn(r, fmt, ap);
  sfi_stream_sync(f, r);
  return v;
}

#define STREAM_SCANF(name, vname, sym, vsym, gnu)                              \
  static int checked_##vname(FILE *f, const char *fmt, sfi_va ap) {            \
    struct scanf_call c = {.fmt = fmt, .ap = ap};                               \
    FILE *r;                                                                   \
    SCANF_CALL(sym, c, gnu, r = sfi_stream_of(f, 1),                           \
               stream_scanf(NEXT_AS(stream_scanf_fn *, vsym), f, r, c.fmt,     \
                            c.ap));                                            \
  }                                                                            \
  SFI_EXPORT int vname(FILE *f, const char *fmt, va_list ap) __asm__(vsym);    \
  SFI_EXPORT int name(FILE *f, const char *fmt, ...) __asm__(sym);             \
  int vname(FILE *f, const char *fmt, va_list ap) {                            \
    return SFI_CHECKED() ? checked_##vname(f, fmt, ap)                         \
                         : stream_scanf(NEXT_AS(stream_scanf_fn *, vsym), f,   \
                                        sfi_stream_of(f, 0), fmt, ap);         \
  }                                                                            \
  int name(FILE *f, const char *fmt, ...) {                                    \
    va_list ap;                                                                \
    va_start(ap, fmt);                                                         \
    int r = SFI_CHECKED() ? checked_##vname(f, fmt, ap)                        \
                          : stream_scanf(NEXT_AS(stream_scanf_fn *, vsym), f,  \
                                         sfi_stream_of(f, 0), fmt, ap);        \
    va_end(ap);                                                                \
    return r;                                                                  \
  }
STREAM_SCANF(gnu_fscanf, gnu_vfscanf, "fscanf", "vfscanf", 1)
STREAM_SCANF(c99_fscanf, c99_vfscanf, "__isoc99_fscanf", "__isoc99_vfscanf", 0)

#define STDIN_SCANF(name, vname, sym, vsym, gnu)                               \
  static int checked_##vname(const char *fmt, sfi_va ap) {                     \
    struct scanf_call c = {.fmt = fmt, .ap = ap};                               \
    SCANF_CALL(sym, c, gnu, sfi_check_file(stdin),                             \
               NEXT_AS(stdin_scanf_fn *, vsym)(c.fmt, c.ap));                  \
  }                                                                            \
  SFI_EXPORT int vname(const char *fmt, va_list ap) __asm__(vsym);             \
  SFI_EXPORT int name(const char *fmt, ...) __asm__(sym);                      \
  int vname(const char *fmt, va_list ap) {                                     \
    return SFI_CHECKED() ? checked_##vname(fmt, ap)                            \
                         : NEXT_AS(stdin_scanf_fn *, vsym)(fmt, ap);           \
  }                                                                            \
  int name(const char *fmt, ...) {                                             \
    va_list ap;                                                                \
    va_start(ap, fmt);                                                         \
    int r = SFI_CHECKED() ? checked_##vname(fmt, ap)                           \
                          : NEXT_AS(stdin_scanf_fn *, vsym)(fmt, ap);          \
    va_end(ap);                                                                \
    return r;                                                                  \
  }
STDIN_SCANF(gnu_scanf, gnu_vscanf, "scanf", "vscanf", 1)
STDIN_SCANF(c99_scanf, c99_vscanf, "__isoc99_scanf", "__isoc99_vscanf", 0)
