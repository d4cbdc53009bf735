/* sfi_mem.c - interceptors of the mem* functions (sfi_intercept.h):
 * destinations checked for writing, sources for reading, before libc's
 * function runs. Each has a plain loop for while libc's is being looked
 * up (sfi_real.h). */
#define _GNU_SOURCE
#include "sfi_intercept.h"

#include <string.h>
#include <strings.h>

SFI_EXPORT void *memcpy(void *dst, const void *src, size_t n) {
  if (SFI_CHECKED()) {
    SFI_WRITE(dst, n);
    SFI_READ(src, n);
  }
  __typeof__(&memcpy) real = SFI_REAL(memcpy);
  if (real)
    return real(dst, src, n);
  for (size_t i = 0; i < n; ++i)
    ((char *)dst)[i] = ((const char *)src)[i];
  return dst;
}

SFI_EXPORT void *mempcpy(void *dst, const void *src, size_t n) {
  if (SFI_CHECKED()) {
    SFI_WRITE(dst, n);
    SFI_READ(src, n);
  }
  __typeof__(&mempcpy) real = SFI_REAL(mempcpy);
  if (real)
    return real(dst, src, n);
  for (size_t i = 0; i < n; ++i)
    ((char *)dst)[i] = ((const char *)src)[i];
  return (char *)dst + n;
}

SFI_EXPORT void *memmove(void *dst, const void *src, size_t n) {
  if (SFI_CHECKED()) {
    SFI_WRITE(dst, n);
    SFI_READ(src, n);
  }
  __typeof__(&memmove) real = SFI_REAL(memmove);
  if (real)
    return real(dst, src, n);
  char *d = dst;
  const char *s = src;
  if (d < s)
    for (size_t i = 0; i < n; ++i)
      d[i] = s[i];
  else
    for (size_t i = n; i-- > 0;)
      d[i] = s[i];
  return dst;
}

SFI_EXPORT void *memset(void *dst, int c, size_t n) {
  if (SFI_CHECKED())
    SFI_WRITE(dst, n);
  __typeof__(&memset) real = SFI_REAL(memset);
  if (real)
    return real(dst, c, n);
  for (size_t i = 0; i < n; ++i)
    ((char *)dst)[i] = (char)c;
  return dst;
}

SFI_EXPORT void bzero(void *dst, size_t n) {
  if (SFI_CHECKED())
    SFI_WRITE(dst, n);
  __typeof__(&bzero) real = SFI_REAL(bzero);
  if (real) {
    real(dst, n);
    return;
  }
  for (size_t i = 0; i < n; ++i)
    ((char *)dst)[i] = 0;
}

SFI_EXPORT void explicit_bzero(void *dst, size_t n) {
  if (SFI_CHECKED())
    SFI_WRITE(dst, n);
  NEXT(explicit_bzero)(dst, n);
}

static int compare(const void *a, const void *b, size_t n) {
  const unsigned char *x = a, *y = b;
  for (size_t i = 0; i < n; ++i)
    if (x[i] != y[i])
      return x[i] - y[i];
  return 0;
}

SFI_EXPORT int memcmp(const void *a, const void *b, size_t n) {
  if (SFI_CHECKED()) {
    SFI_READ(a, n);
    SFI_READ(b, n);
  }
  __typeof__(&memcmp) real = SFI_REAL(memcmp);
  return real ? real(a, b, n) : compare(a, b, n);
}

SFI_EXPORT int bcmp(const void *a, const void *b, size_t n) {
  if (SFI_CHECKED()) {
    SFI_READ(a, n);
    SFI_READ(b, n);
  }
  __typeof__(&bcmp) real = SFI_REAL(bcmp);
  return real ? real(a, b, n) : compare(a, b, n);
}

/* memchr reads no further than the byte it finds. */
SFI_EXPORT void *memchr(const void *s, int c, size_t n) {
  int checked = SFI_CHECKED();
  __typeof__(&memchr) real = SFI_REAL(memchr);
  const unsigned char *hit = NULL;
  if (real) {
    hit = real(s, c, n);
  } else {
    for (size_t i = 0; i < n && !hit; ++i)
      if (((const unsigned char *)s)[i] == (unsigned char)c)
        hit = (const unsigned char *)s + i;
  }
  if (checked)
    SFI_READ(s, hit ? (size_t)(hit - (const unsigned char *)s) + 1 : n);
  return (void *)hit;
}

SFI_EXPORT void *memrchr(const void *s, int c, size_t n) {
  if (SFI_CHECKED())
    SFI_READ(s, n);
  return NEXT(memrchr)(s, c, n);
}

SFI_EXPORT void *rawmemchr(const void *s, int c) {
  int checked = SFI_CHECKED();
  void *hit = NEXT(rawmemchr)(s, c);
  if (checked)
    SFI_READ(s, (const char *)hit - (const char *)s + 1);
  return hit;
}

SFI_EXPORT void *memmem(const void *h, size_t hn, const void *n, size_t nn) {
  if (SFI_CHECKED()) {
    SFI_READ(h, hn);
    SFI_READ(n, nn);
  }
  return NEXT(memmem)(h, hn, n, nn);
}
