// The check of a C library call's pointer arguments (docs/compiler.md,
// "SFI checks") knows the library's functions by their declarations: one
// unlike the library's (modf's pointer as an integer) escaped it, and
// libc wrote where the integer pointed (the attack round of issue #15's
// session, 2026-11-26). It is a compile error now; the library's own
// declaration compiles, and so does one under an assembler label (the
// declaration's name is the library's: checked).
// RUN: not %dipc-clang -fdipc -fdipc-sfi -O2 -DPROTO -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=PROTO
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -c -o /dev/null %s
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -DLABEL -S -o - %s | FileCheck %s --check-prefix=LABEL
// PROTO: error: dipc: -fdipc-sfi cannot check 'evil': it calls the C library's 'modf' through a declaration unlike the library's
// LABEL: testb $1, 2013265920(
// LABEL: callq modf@PLT
#include <dipc.h>
#include <stdint.h>

#if defined(PROTO)
double modf(double, long);
#define CALL(x, p) modf(x, (long)(p))
#elif defined(LABEL)
extern double my_modf(double, double *) __asm__("modf");
#define CALL(x, p) my_modf(x, p)
#else
#include <math.h>
#define CALL(x, p) modf(x, p)
#endif

double evil(double x, double *where) __dom("evil") __entry {
  return CALL(x, where);
}
