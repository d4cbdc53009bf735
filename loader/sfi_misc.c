/* sfi_misc.c - the remaining interceptors (sfi_intercept.h): sorting and
 * searching arrays, number parsing, character classes, the environment,
 * clocks and times. Mutexes: sfi_mutex.c. */
#define _GNU_SOURCE
#include "sfi_intercept.h"
#include "stream_memory.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define STRING(s) sfi_read_string((s), SIZE_MAX)

/* Number parsing: the string as far as its NUL (libc may stop earlier),
 * and the end pointer written. */
#define PARSE(type, name, ...)                                                 \
  SFI_EXPORT type name(const char *s, char **end __VA_OPT__(, ) __VA_ARGS__) { \
    if (SFI_CHECKED()) {                                                       \
      STRING(s);                                                               \
      if (end)                                                                 \
        SFI_WRITE(end, sizeof *end);                                           \
    }                                                                          \
    return NEXT(name)(s, end __VA_OPT__(, base));                              \
  }
PARSE(long, strtol, int base)
PARSE(long long, strtoll, int base)
PARSE(unsigned long, strtoul, int base)
PARSE(unsigned long long, strtoull, int base)
PARSE(double, strtod)
PARSE(float, strtof)
PARSE(long double, strtold)

/* Character classes: glibc's isalpha(c) and its kin return its class
 * table at index c, unbounded (C's macros index the same table in
 * compiled code, where the load is checked; C++ calls the functions): an
 * index out of range read another domain's data within 4 GiB of the table
 * (e2e/attack-sfi-ctype-index.c). The table holds -128..255 (unsigned
 * char and EOF, C's domain for them); any other c is in no class.
 * toupper and tolower bound c themselves (sfi_calls.c). */
#define CLASS(name)                                                            \
  SFI_EXPORT int(name)(int c) { /* (): <ctype.h> has macros too */           \
    if (SFI_CHECKED() && (c < -128 || c > 255))                                \
      return 0;                                                                \
    return NEXT(name)(c);                                                      \
  }
CLASS(isalnum)
CLASS(isalpha)
CLASS(isblank)
CLASS(iscntrl)
CLASS(isdigit)
CLASS(isgraph)
CLASS(islower)
CLASS(isprint)
CLASS(ispunct)
CLASS(isspace)
CLASS(isupper)
CLASS(isxdigit)

SFI_EXPORT int atoi(const char *s) {
  if (SFI_CHECKED())
    STRING(s);
  return NEXT(atoi)(s);
}

SFI_EXPORT long atol(const char *s) {
  if (SFI_CHECKED())
    STRING(s);
  return NEXT(atol)(s);
}

SFI_EXPORT double atof(const char *s) {
  if (SFI_CHECKED())
    STRING(s);
  return NEXT(atof)(s);
}

SFI_EXPORT char *getenv(const char *name) {
  if (SFI_CHECKED())
    STRING(name);
  return NEXT(getenv)(name);
}

/* GCONV_PATH names where iconv_open loads conversion modules from, with
 * libc's internal dlopen, which the loader's never sees: a domain that set
 * it had a plain library's constructor run unchecked. Refused to
 * instrumented code, as a dlopen of a plain library is. */
static int loads_code(const char *name, size_t len) {
  return len == 10 && !memcmp(name, "GCONV_PATH", 10);
}

static int setenv_state(const char *name, const char *value, int overwrite) {
  LIBC_STATE(int, NEXT(setenv)(name, value, overwrite));
}

SFI_EXPORT int setenv(const char *name, const char *value, int overwrite) {
  if (!SFI_CHECKED()) /* the environment is libc's state */
    return setenv_state(name, value, overwrite);
  /* Copies the GCONV_PATH test and libc then read (sfi_string_in): a
   * second thread turned a checked XCONV_PATH into GCONV_PATH while
   * libc's setenv read it again. */
  size_t len, value_len;
  char *name_copy = sfi_string_in("setenv", name, SIZE_MAX, &len);
  char *value_copy =
      name_copy ? sfi_string_in("setenv", value, SIZE_MAX, &value_len) : NULL;
  int r = -1;
  if (value_copy && loads_code(name_copy, len))
    r = (int)sfi_refuse("setenv of GCONV_PATH");
  else if (value_copy)
    r = setenv_state(name_copy, value_copy, overwrite);
  sfi_copy_done(name_copy);
  return r;
}

/* libc keeps putenv's string itself, which the domain could rewrite into
 * GCONV_PATH=... later: from instrumented code it is copied (setenv). */
SFI_EXPORT int putenv(char *string) {
  if (!SFI_CHECKED())
    LIBC_STATE(int, NEXT(putenv)(string));
  size_t len;
  char *copy = sfi_string_in("putenv", string, SIZE_MAX, &len);
  if (!copy)
    return -1;
  char *eq = memchr(copy, '=', len);
  int r;
  if (!eq)
    r = NEXT(unsetenv)(copy);
  else if (loads_code(copy, (size_t)(eq - copy)))
    r = (int)sfi_refuse("putenv of GCONV_PATH");
  else
    r = (*eq = '\0', setenv_state(copy, eq + 1, 1));
  sfi_copy_done(copy);
  return r;
}

SFI_EXPORT int clock_gettime(clockid_t clock, struct timespec *ts) {
  if (SFI_CHECKED())
    SFI_WRITE(ts, sizeof *ts);
  return NEXT(clock_gettime)(clock, ts);
}

/* gettimeofday's tv is declared nonnull, and passed NULL all the same. */
static int given(const void *p) { return p != NULL; }

SFI_EXPORT int gettimeofday(struct timeval *tv, void *tz) {
  if (SFI_CHECKED()) {
    if (given(tv))
      SFI_WRITE(tv, sizeof *tv);
    if (tz)
      SFI_WRITE(tz, sizeof(struct timezone));
  }
  return NEXT(gettimeofday)(tv, tz);
}

SFI_EXPORT time_t time(time_t *t) {
  if (SFI_CHECKED() && t)
    SFI_WRITE(t, sizeof *t);
  return NEXT(time)(t);
}

SFI_EXPORT int nanosleep(const struct timespec *req, struct timespec *rem) {
  if (SFI_CHECKED()) {
    SFI_READ(req, sizeof *req);
    if (rem)
      SFI_WRITE(rem, sizeof *rem);
  }
  return NEXT(nanosleep)(req, rem);
}

/* The time functions read the time zone in at their first call (and
 * again when TZ changed): libc's state (LIBC_STATE). */

/* Reads the time and writes it back normalised. */
SFI_EXPORT time_t mktime(struct tm *tm) {
  if (SFI_CHECKED())
    SFI_WRITE(tm, sizeof *tm);
  LIBC_STATE(time_t, NEXT(mktime)(tm));
}

/* The result is libc's static struct tm (trusted, shared by every
 * domain); localtime_r writes the caller's. */
SFI_EXPORT struct tm *localtime(const time_t *t) {
  if (SFI_CHECKED())
    SFI_READ(t, sizeof *t);
  LIBC_STATE(struct tm *, NEXT(localtime)(t));
}

SFI_EXPORT struct tm *localtime_r(const time_t *t, struct tm *out) {
  if (SFI_CHECKED()) {
    SFI_READ(t, sizeof *t);
    SFI_WRITE(out, sizeof *out);
  }
  LIBC_STATE(struct tm *, NEXT(localtime_r)(t, out));
}

SFI_EXPORT struct tm *gmtime_r(const time_t *t, struct tm *out) {
  if (SFI_CHECKED()) {
    SFI_READ(t, sizeof *t);
    SFI_WRITE(out, sizeof *out);
  }
  LIBC_STATE(struct tm *, NEXT(gmtime_r)(t, out));
}

SFI_EXPORT int pthread_join(pthread_t t, void **result) {
  if (SFI_CHECKED() && result)
    SFI_WRITE(result, sizeof *result);
  return NEXT(pthread_join)(t, result);
}

/* Byte shuffles LLVM does not know as the C library's (no check is
 * compiled in before a call): swab(secret, own, n) copied another
 * domain's secret (an attack round). */
SFI_EXPORT void swab(const void *from, void *to, ssize_t n) {
  if (SFI_CHECKED() && n > 0) {
    SFI_READ(from, (size_t)n);
    SFI_WRITE(to, (size_t)n);
  }
  NEXT(swab)(from, to, n);
}

SFI_EXPORT void *memfrob(void *s, size_t n) {
  if (SFI_CHECKED())
    SFI_WRITE(s, n);
  return NEXT(memfrob)(s, n);
}

SFI_EXPORT char *strfry(char *s) {
  if (SFI_CHECKED())
    SFI_WRITE(s, STRING(s) + 1);
  return NEXT(strfry)(s);
}
