/* sfi_str.c - interceptors of the str* functions (sfi_intercept.h): every
 * string is checked as far as libc reads it (to its NUL, or the bound),
 * every destination for what libc writes there. Where the extent depends
 * on the result (strchr, strspn), it is checked before the result is
 * returned. Everywhere else the work is bounded by the lengths checked
 * (memcpy, strncmp, memmem, a loop of the loader's), never a second
 * search for a NUL: another thread of the domain can remove one after the
 * check (an attack round's strcpy and strcat wrote past it, strtok_r
 * followed a *save rewritten meanwhile). Those dlsym may call have a plain
 * loop for while libc's is being looked up (sfi_real.h). */
#define _GNU_SOURCE
#include "sfi_intercept.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NO_BOUND SIZE_MAX

static size_t length(const char *s, size_t max) {
  size_t n = 0;
  while (n < max && s[n])
    ++n;
  return n;
}

SFI_EXPORT size_t strlen(const char *s) {
  if (SFI_CHECKED())
    return sfi_read_string(s, NO_BOUND);
  __typeof__(&strlen) real = SFI_REAL(strlen);
  return real ? real(s) : length(s, NO_BOUND);
}

SFI_EXPORT size_t strnlen(const char *s, size_t max) {
  if (SFI_CHECKED())
    return sfi_read_string(s, max);
  __typeof__(&strnlen) real = SFI_REAL(strnlen);
  return real ? real(s, max) : length(s, max);
}

/* How far strcmp-like functions read: up to the first difference or NUL
 * (both strings equally far), at most n bytes. */
static size_t compared(const char *a, const char *b, size_t n, int fold) {
  size_t i = 0;
  for (; i < n; ++i) {
    unsigned char x = a[i], y = b[i];
    if (fold) {
      x = x >= 'A' && x <= 'Z' ? x + 32 : x;
      y = y >= 'A' && y <= 'Z' ? y + 32 : y;
    }
    if (x != y || !x)
      return i + 1;
  }
  return n;
}

/* Checks what the comparison reads; returns how far that is, which
 * bounds the real comparison. */
static size_t check_compared(const char *a, const char *b, size_t n,
                             int fold) {
  if (n == 0)
    return 0;
  SFI_READ(a, 1);
  SFI_READ(b, 1);
  size_t k = compared(a, b, n, fold);
  SFI_READ(a, k);
  SFI_READ(b, k);
  return k;
}

SFI_EXPORT int strcmp(const char *a, const char *b) {
  if (SFI_CHECKED())
    return NEXT(strncmp)(a, b, check_compared(a, b, NO_BOUND, 0));
  __typeof__(&strcmp) real = SFI_REAL(strcmp);
  if (real)
    return real(a, b);
  size_t k = compared(a, b, NO_BOUND, 0);
  return (unsigned char)a[k - 1] - (unsigned char)b[k - 1];
}

SFI_EXPORT int strncmp(const char *a, const char *b, size_t n) {
  if (SFI_CHECKED())
    return NEXT(strncmp)(a, b, check_compared(a, b, n, 0));
  __typeof__(&strncmp) real = SFI_REAL(strncmp);
  if (real)
    return real(a, b, n);
  size_t k = compared(a, b, n, 0);
  return k ? (unsigned char)a[k - 1] - (unsigned char)b[k - 1] : 0;
}

SFI_EXPORT int strcasecmp(const char *a, const char *b) {
  if (SFI_CHECKED())
    return NEXT(strncasecmp)(a, b, check_compared(a, b, NO_BOUND, 1));
  return NEXT(strcasecmp)(a, b);
}

SFI_EXPORT int strncasecmp(const char *a, const char *b, size_t n) {
  if (SFI_CHECKED())
    return NEXT(strncasecmp)(a, b, check_compared(a, b, n, 1));
  return NEXT(strncasecmp)(a, b, n);
}

/* A copy of s in the thread's scratch area (sfi_string_in), or a refused
 * access when there is no room: for what libc must have as one string. */
static const char *string_in(const char *call, const char *s) {
  size_t len;
  const char *copy = sfi_string_in(call, s, NO_BOUND, &len);
  if (!copy)
    SFI_READ(s, UINT64_MAX);
  return copy;
}

SFI_EXPORT int strcoll(const char *a, const char *b) {
  if (!SFI_CHECKED())
    return NEXT(strcoll)(a, b);
  const char *ca = string_in("strcoll", a), *cb = string_in("strcoll", b);
  int r = NEXT(strcoll)(ca, cb);
  sfi_copy_done((void *)ca);
  return r;
}

/* strchr, strchrnul, strpbrk read up to what they find, else the NUL. */
static void check_scanned(const char *s, const char *hit) {
  if (hit)
    SFI_READ(s, hit - s + 1);
  else
    sfi_read_string(s, NO_BOUND);
}

SFI_EXPORT char *strchr(const char *s, int c) {
  int checked = SFI_CHECKED();
  if (checked)
    SFI_READ(s, 1);
  __typeof__(&strchr) real = SFI_REAL(strchr);
  const char *hit = NULL;
  if (real) {
    hit = real(s, c);
  } else {
    for (const char *p = s;; ++p)
      if (*p == (char)c || !*p) {
        hit = *p == (char)c ? p : NULL;
        break;
      }
  }
  if (checked)
    check_scanned(s, hit);
  return (char *)hit;
}

SFI_EXPORT char *strchrnul(const char *s, int c) {
  int checked = SFI_CHECKED();
  if (checked)
    SFI_READ(s, 1);
  char *hit = NEXT(strchrnul)(s, c);
  if (checked)
    check_scanned(s, hit);
  return hit;
}

SFI_EXPORT char *strrchr(const char *s, int c) {
  if (SFI_CHECKED())
    return memrchr(s, c, sfi_read_string(s, NO_BOUND) + 1);
  __typeof__(&strrchr) real = SFI_REAL(strrchr);
  if (real)
    return real(s, c);
  const char *hit = NULL;
  for (const char *p = s;; ++p) {
    if (*p == (char)c)
      hit = p;
    if (!*p)
      return (char *)hit;
  }
}

/* strspn's and strcspn's work for instrumented callers: the set within
 * its checked length (libc would search it to a NUL another thread can
 * remove), s scanned to the first byte in (or out of) it or its NUL, and
 * checked that far before the result is returned. */
static size_t span(const char *s, const char *set, int in) {
  size_t n = sfi_read_string(set, NO_BOUND), i = 0;
  SFI_READ(s, 1);
  while (s[i] && (memchr(set, s[i], n) != NULL) == in)
    ++i;
  SFI_READ(s, i + 1);
  return i;
}

SFI_EXPORT char *strpbrk(const char *s, const char *set) {
  if (SFI_CHECKED()) {
    size_t i = span(s, set, 0);
    return s[i] ? (char *)s + i : NULL;
  }
  return NEXT(strpbrk)(s, set);
}

SFI_EXPORT size_t strspn(const char *s, const char *set) {
  if (SFI_CHECKED())
    return span(s, set, 1);
  return NEXT(strspn)(s, set);
}

SFI_EXPORT size_t strcspn(const char *s, const char *set) {
  if (SFI_CHECKED())
    return span(s, set, 0);
  return NEXT(strcspn)(s, set);
}

SFI_EXPORT char *strstr(const char *h, const char *n) {
  if (SFI_CHECKED()) {
    size_t lh = sfi_read_string(h, NO_BOUND), ln = sfi_read_string(n, NO_BOUND);
    return memmem(h, lh, n, ln);
  }
  return NEXT(strstr)(h, n);
}

SFI_EXPORT char *strcasestr(const char *h, const char *n) {
  if (SFI_CHECKED()) {
    size_t lh = sfi_read_string(h, NO_BOUND), ln = sfi_read_string(n, NO_BOUND);
    for (size_t i = 0; i + ln <= lh; ++i)
      if (NEXT(strncasecmp)(h + i, n, ln) == 0)
        return (char *)h + i;
    return NULL;
  }
  return NEXT(strcasestr)(h, n);
}

/* The copying functions, checked: the length measured, then memcpy. */
static char *copy_string(char *dst, const char *src, size_t len) {
  SFI_WRITE(dst, len + 1);
  memcpy(dst, src, len);
  dst[len] = '\0';
  return dst + len;
}

SFI_EXPORT char *strcpy(char *dst, const char *src) {
  if (SFI_CHECKED()) {
    copy_string(dst, src, sfi_read_string(src, NO_BOUND));
    return dst;
  }
  __typeof__(&strcpy) real = SFI_REAL(strcpy);
  if (real)
    return real(dst, src);
  size_t i = 0;
  do
    dst[i] = src[i];
  while (src[i++]);
  return dst;
}

SFI_EXPORT char *stpcpy(char *dst, const char *src) {
  if (SFI_CHECKED())
    return copy_string(dst, src, sfi_read_string(src, NO_BOUND));
  return NEXT(stpcpy)(dst, src);
}

/* strncpy and stpncpy (and __strncpy_chk) write all n bytes (padding with
 * NULs). */
char *sfi_copy_padded(char *dst, const char *src, size_t n) {
  size_t len = sfi_read_string(src, n);
  SFI_WRITE(dst, n);
  memcpy(dst, src, len);
  memset(dst + len, 0, n - len);
  return dst + len;
}

SFI_EXPORT char *strncpy(char *dst, const char *src, size_t n) {
  if (SFI_CHECKED()) {
    sfi_copy_padded(dst, src, n);
    return dst;
  }
  return NEXT(strncpy)(dst, src, n);
}

SFI_EXPORT char *stpncpy(char *dst, const char *src, size_t n) {
  if (SFI_CHECKED())
    return sfi_copy_padded(dst, src, n);
  return NEXT(stpncpy)(dst, src, n);
}

SFI_EXPORT char *strcat(char *dst, const char *src) {
  if (SFI_CHECKED()) {
    size_t at = sfi_read_string(dst, NO_BOUND);
    copy_string(dst + at, src, sfi_read_string(src, NO_BOUND));
    return dst;
  }
  return NEXT(strcat)(dst, src);
}

SFI_EXPORT char *strncat(char *dst, const char *src, size_t n) {
  if (SFI_CHECKED()) {
    size_t at = sfi_read_string(dst, NO_BOUND);
    copy_string(dst + at, src, sfi_read_string(src, n));
    return dst;
  }
  return NEXT(strncat)(dst, src, n);
}

static char *duplicate(const char *s, size_t len) {
  char *d = malloc(len + 1);
  if (d) {
    memcpy(d, s, len);
    d[len] = '\0';
  }
  return d;
}

SFI_EXPORT char *strdup(const char *s) {
  if (SFI_CHECKED())
    return duplicate(s, sfi_read_string(s, NO_BOUND));
  return NEXT(strdup)(s);
}

SFI_EXPORT char *strndup(const char *s, size_t n) {
  if (SFI_CHECKED())
    return duplicate(s, sfi_read_string(s, n));
  return NEXT(strndup)(s, n);
}

/* strtok_r's work for instrumented callers, within the lengths checked:
 * str (s, or *save read once) is written (NULs), and *save. */
static char *tokenize(char *s, const char *delim, char **save) {
  size_t dl = sfi_read_string(delim, NO_BOUND);
  char *str = s;
  if (!str && !(str = *save)) /* *save checked by the caller */
    return NULL;
  size_t len = sfi_read_string(str, NO_BOUND), i = 0;
  SFI_WRITE(str, len + 1);
  while (i < len && memchr(delim, str[i], dl))
    ++i;
  if (i == len) {
    *save = str + len;
    return NULL;
  }
  size_t start = i;
  while (i < len && !memchr(delim, str[i], dl))
    ++i;
  if (i < len)
    str[i++] = '\0';
  *save = str + i;
  return str + start;
}

SFI_EXPORT char *strtok_r(char *s, const char *delim, char **save) {
  if (SFI_CHECKED()) {
    SFI_WRITE(save, sizeof *save);
    return tokenize(s, delim, save);
  }
  return NEXT(strtok_r)(s, delim, save);
}

/* strtok from instrumented code keeps its position in the loader (runtime
 * memory), apart from libc's, and a string continued (NULL) must be one
 * the running domain may write: not another domain's that it began. */
static char *strtok_position;

SFI_EXPORT char *strtok(char *s, const char *delim) {
  if (SFI_CHECKED())
    return tokenize(s, delim, &strtok_position);
  return NEXT(strtok)(s, delim);
}
