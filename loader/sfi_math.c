/* sfi_math.c - interceptors of the math functions that write a result
 * through a pointer, or read a string (sfi_intercept.h). The compiled-in
 * check of a C library call covers the first byte of each pointer only:
 * modf over the last byte of a page the domain may write put the other 7
 * bytes of its result into the next page, another domain's. */
#define _GNU_SOURCE
#include "sfi_intercept.h"

#include <math.h>

/* type name(type x, out *p): *p written whole. */
#define ONE_OUT(type, name, out)                                               \
  SFI_EXPORT type name(type x, out *p) {                                       \
    if (SFI_CHECKED())                                                         \
      SFI_WRITE(p, sizeof *p);                                                 \
    return NEXT(name)(x, p);                                                   \
  }
ONE_OUT(double, modf, double)
ONE_OUT(float, modff, float)
ONE_OUT(long double, modfl, long double)
ONE_OUT(double, frexp, int)
ONE_OUT(float, frexpf, int)
ONE_OUT(long double, frexpl, int)
ONE_OUT(double, lgamma_r, int)
ONE_OUT(float, lgammaf_r, int)
ONE_OUT(long double, lgammal_r, int)

#define REMQUO(type, name)                                                     \
  SFI_EXPORT type name(type x, type y, int *quo) {                             \
    if (SFI_CHECKED())                                                         \
      SFI_WRITE(quo, sizeof *quo);                                             \
    return NEXT(name)(x, y, quo);                                              \
  }
REMQUO(double, remquo)
REMQUO(float, remquof)
REMQUO(long double, remquol)

#define SINCOS(type, name)                                                     \
  SFI_EXPORT void name(type x, type *s, type *c) {                             \
    if (SFI_CHECKED()) {                                                       \
      SFI_WRITE(s, sizeof *s);                                                 \
      SFI_WRITE(c, sizeof *c);                                                 \
    }                                                                          \
    NEXT(name)(x, s, c);                                                       \
  }
SINCOS(double, sincos)
SINCOS(float, sincosf)
SINCOS(long double, sincosl)

#define NAN_OF(type, name)                                                     \
  SFI_EXPORT type name(const char *tag) {                                      \
    if (SFI_CHECKED())                                                         \
      sfi_read_string(tag, SIZE_MAX);                                          \
    return NEXT(name)(tag);                                                    \
  }
NAN_OF(double, nan)
NAN_OF(float, nanf)
NAN_OF(long double, nanl)
