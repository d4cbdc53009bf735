// The check of a C library call's pointer arguments under `sfi` (the first
// byte the running domain may read, or write) lets through what programs
// pass: null pointers (free(NULL), realloc(NULL, n), time(NULL), strtol's
// NULL end), the domain's own memory, the caller's buffer it was lent, and
// values printed with %p, which name no memory it reads. Domain `worker`
// may read the default domain, not write it.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lm
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-sfi -O0 %s -o %t.sfi-O0 -lm
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi-O0 2>&1 | FileCheck %s
// CHECK: worker: 5 calls with null pointers, parsed 42, modf 3 and 0.5, frexp exponent 3, printed a pointer
// CHECK-NEXT: main: worker returned 1, dipc_errno 0
#include <dipc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double whole __dom("worker");
static int exponent __dom("worker");
static char secret[16] __dom("vault") = "not for worker";

int work(char *out, size_t n, const char *number, void *opaque)
    __dom("worker") __entry __perm("default", read) {
  void *volatile nothing = NULL;
  free(nothing);
  void *p = realloc(nothing, 16);
  free(p);
  int nulls = 3 + (time(nothing) > 0) + (strtol(number, nothing, 10) == 42);
  double frac = modf(3.5, &whole);
  frexp(5.0, &exponent);
  snprintf(out, n,
           "worker: %d calls with null pointers, parsed %ld, modf %g and %g, "
           "frexp exponent %d, %s",
           nulls, strtol(number, NULL, 10), whole, frac, exponent,
           opaque ? "printed a pointer" : "no pointer");
  char where[32];
  snprintf(where, sizeof where, "%p", opaque);
  return where[0] != 0;
}

int main(void) {
  char line[200] = "";
  int r = work(line, sizeof line, "42", secret);
  printf("%s\nmain: worker returned %d, dipc_errno %d\n", line, r, dipc_errno);
  return 0;
}
