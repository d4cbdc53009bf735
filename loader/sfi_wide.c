/* sfi_wide.c - the wide-character memory and string functions under
 * `sfi` (sfi_intercept.h). LLVM does not know them as the C library's,
 * so no check is compiled in before a call of one: wmemcpy read another
 * domain's secret outright, and wrote over the saved registers of the
 * domain's own frames (an attack round). The wmem* functions and
 * wcslen/wcsnlen are checked here over their whole ranges; the others
 * (copies, concatenations, comparisons, searches, conversions) are refused
 * to instrumented code: the call faults, as a denied access does, and
 * returns DIPC_EFAULT to the domain's caller. Other code (libc, plain
 * libraries) calls them all as usual. */
#define _GNU_SOURCE
#include "sfi_intercept.h"

#include <stdint.h>
#include <wchar.h>

/* n wide characters in bytes; a count that overflows is a range no domain
 * may touch (the check refuses it). */
static size_t wide_bytes(size_t n) {
  return n > SIZE_MAX / sizeof(wchar_t) ? SIZE_MAX : n * sizeof(wchar_t);
}

/* COPY(name, (params), (args)): dst written and src read, n wide
 * characters each. */
#define COPY(name, params, args)                                              \
  SFI_EXPORT wchar_t *name params {                                           \
    if (SFI_CHECKED()) {                                                      \
      SFI_WRITE(dst, wide_bytes(n));                                          \
      SFI_READ(src, wide_bytes(n));                                           \
    }                                                                         \
    return NEXT(name) args;                                                   \
  }

COPY(wmemcpy, (wchar_t *dst, const wchar_t *src, size_t n), (dst, src, n))
COPY(wmempcpy, (wchar_t *dst, const wchar_t *src, size_t n), (dst, src, n))
COPY(wmemmove, (wchar_t *dst, const wchar_t *src, size_t n), (dst, src, n))

SFI_EXPORT wchar_t *wmemset(wchar_t *dst, wchar_t c, size_t n) {
  if (SFI_CHECKED())
    SFI_WRITE(dst, wide_bytes(n));
  return NEXT(wmemset)(dst, c, n);
}

SFI_EXPORT int wmemcmp(const wchar_t *a, const wchar_t *b, size_t n) {
  if (SFI_CHECKED()) {
    SFI_READ(a, wide_bytes(n));
    SFI_READ(b, wide_bytes(n));
  }
  return NEXT(wmemcmp)(a, b, n);
}

SFI_EXPORT wchar_t *wmemchr(const wchar_t *s, wchar_t c, size_t n) {
  if (SFI_CHECKED())
    SFI_READ(s, wide_bytes(n));
  return NEXT(wmemchr)(s, c, n);
}

/* The length of s, at most max, its characters (and NUL, when within
 * max) checked readable: the first before anything is scanned. */
static size_t read_wide_string(const wchar_t *s, size_t max) {
  if (max == 0)
    return 0;
  SFI_READ(s, sizeof(wchar_t));
  size_t len = NEXT(wcsnlen)(s, max);
  SFI_READ(s, wide_bytes(len < max ? len + 1 : max));
  return len;
}

SFI_EXPORT size_t wcslen(const wchar_t *s) {
  if (SFI_CHECKED())
    return read_wide_string(s, SIZE_MAX);
  return NEXT(wcslen)(s);
}

SFI_EXPORT size_t wcsnlen(const wchar_t *s, size_t max) {
  if (SFI_CHECKED())
    return read_wide_string(s, max);
  return NEXT(wcsnlen)(s, max);
}

/* REFUSED(ret, name, (params), (args)): refused to instrumented code. */
#define REFUSED(ret, name, params, args)                                      \
  SFI_EXPORT ret name params {                                                \
    if (SFI_CHECKED())                                                        \
      sfi_refuse_fault(#name);                                                     \
    return NEXT(name) args;                                                   \
  }

REFUSED(wchar_t *, wcscpy, (wchar_t *d, const wchar_t *s), (d, s))
REFUSED(wchar_t *, wcpcpy, (wchar_t *d, const wchar_t *s), (d, s))
REFUSED(wchar_t *, wcsncpy, (wchar_t *d, const wchar_t *s, size_t n),
        (d, s, n))
REFUSED(wchar_t *, wcpncpy, (wchar_t *d, const wchar_t *s, size_t n),
        (d, s, n))
REFUSED(wchar_t *, wcscat, (wchar_t *d, const wchar_t *s), (d, s))
REFUSED(wchar_t *, wcsncat, (wchar_t *d, const wchar_t *s, size_t n),
        (d, s, n))
REFUSED(int, wcscmp, (const wchar_t *a, const wchar_t *b), (a, b))
REFUSED(int, wcsncmp, (const wchar_t *a, const wchar_t *b, size_t n),
        (a, b, n))
REFUSED(int, wcscasecmp, (const wchar_t *a, const wchar_t *b), (a, b))
REFUSED(int, wcsncasecmp, (const wchar_t *a, const wchar_t *b, size_t n),
        (a, b, n))
REFUSED(int, wcscoll, (const wchar_t *a, const wchar_t *b), (a, b))
REFUSED(size_t, wcsxfrm, (wchar_t *d, const wchar_t *s, size_t n), (d, s, n))
REFUSED(wchar_t *, wcschr, (const wchar_t *s, wchar_t c), (s, c))
REFUSED(wchar_t *, wcsrchr, (const wchar_t *s, wchar_t c), (s, c))
REFUSED(wchar_t *, wcschrnul, (const wchar_t *s, wchar_t c), (s, c))
REFUSED(wchar_t *, wcsstr, (const wchar_t *h, const wchar_t *n), (h, n))
REFUSED(size_t, wcsspn, (const wchar_t *s, const wchar_t *a), (s, a))
REFUSED(size_t, wcscspn, (const wchar_t *s, const wchar_t *r), (s, r))
REFUSED(wchar_t *, wcspbrk, (const wchar_t *s, const wchar_t *a), (s, a))
REFUSED(wchar_t *, wcstok, (wchar_t *s, const wchar_t *d, wchar_t **p),
        (s, d, p))
REFUSED(wchar_t *, wcsdup, (const wchar_t *s), (s))
REFUSED(size_t, mbstowcs, (wchar_t *d, const char *s, size_t n), (d, s, n))
REFUSED(size_t, wcstombs, (char *d, const wchar_t *s, size_t n), (d, s, n))
REFUSED(size_t, mbsrtowcs,
        (wchar_t *d, const char **s, size_t n, mbstate_t *ps), (d, s, n, ps))
REFUSED(size_t, wcsrtombs,
        (char *d, const wchar_t **s, size_t n, mbstate_t *ps), (d, s, n, ps))
REFUSED(size_t, mbsnrtowcs,
        (wchar_t *d, const char **s, size_t m, size_t n, mbstate_t *ps),
        (d, s, m, n, ps))
REFUSED(size_t, wcsnrtombs,
        (char *d, const wchar_t **s, size_t m, size_t n, mbstate_t *ps),
        (d, s, m, n, ps))

/* The fortified forms (_FORTIFY_SOURCE calls them instead). */
COPY(__wmemcpy_chk, (wchar_t *dst, const wchar_t *src, size_t n, size_t room),
     (dst, src, n, room))
COPY(__wmempcpy_chk, (wchar_t *dst, const wchar_t *src, size_t n, size_t room),
     (dst, src, n, room))
COPY(__wmemmove_chk, (wchar_t *dst, const wchar_t *src, size_t n, size_t room),
     (dst, src, n, room))

SFI_EXPORT wchar_t *__wmemset_chk(wchar_t *dst, wchar_t c, size_t n,
                                  size_t room) {
  if (SFI_CHECKED())
    SFI_WRITE(dst, wide_bytes(n));
  return NEXT(__wmemset_chk)(dst, c, n, room);
}

REFUSED(wchar_t *, __wcscpy_chk, (wchar_t *d, const wchar_t *s, size_t r),
        (d, s, r))
REFUSED(wchar_t *, __wcpcpy_chk, (wchar_t *d, const wchar_t *s, size_t r),
        (d, s, r))
REFUSED(wchar_t *, __wcsncpy_chk,
        (wchar_t *d, const wchar_t *s, size_t n, size_t r), (d, s, n, r))
REFUSED(wchar_t *, __wcpncpy_chk,
        (wchar_t *d, const wchar_t *s, size_t n, size_t r), (d, s, n, r))
REFUSED(wchar_t *, __wcscat_chk, (wchar_t *d, const wchar_t *s, size_t r),
        (d, s, r))
REFUSED(wchar_t *, __wcsncat_chk,
        (wchar_t *d, const wchar_t *s, size_t n, size_t r), (d, s, n, r))
REFUSED(size_t, __mbstowcs_chk, (wchar_t *d, const char *s, size_t n,
        size_t r), (d, s, n, r))
REFUSED(size_t, __wcstombs_chk, (char *d, const wchar_t *s, size_t n,
        size_t r), (d, s, n, r))
REFUSED(size_t, __mbsrtowcs_chk,
        (wchar_t *d, const char **s, size_t n, mbstate_t *ps, size_t r),
        (d, s, n, ps, r))
REFUSED(size_t, __wcsrtombs_chk,
        (char *d, const wchar_t **s, size_t n, mbstate_t *ps, size_t r),
        (d, s, n, ps, r))
REFUSED(size_t, __mbsnrtowcs_chk,
        (wchar_t *d, const char **s, size_t m, size_t n, mbstate_t *ps,
         size_t r),
        (d, s, m, n, ps, r))
REFUSED(size_t, __wcsnrtombs_chk,
        (char *d, const wchar_t **s, size_t m, size_t n, mbstate_t *ps,
         size_t r),
        (d, s, m, n, ps, r))
