// Nested domains: main -> outer -> middle -> inner, each call crossing a
// domain. The innermost domain reading outer's secret faults under mpk and
// only the nearest caller (middle) sees DIPC_EFAULT; it answers normally,
// so outer and main go on. Negative control: `--backend=none` lets inner
// read outer's secret.
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// MPK: middle: inner returned 0, faulted 1
// MPK-NEXT: main: outer returned 1014
// NONE: middle: inner returned 99, faulted 0
// NONE-NEXT: main: outer returned 1099
#include <dipc.h>
#include <stdio.h>

static long outer_secret __dom("outer") = 99;

long inner(const long *p) __dom("inner") __entry {
  return *(const volatile long *)p;
}
// Domains that call other domains need the default domain: the caller stub
// reaches dipc_errno (main thread's TLS) through libdipc's GOT entry and
// reads its import slot there; printf needs libc's data too.
long middle(const long *p) __dom("middle") __entry __perm("default", write) {
  long v = inner(p);
  int faulted = dipc_errno == DIPC_EFAULT;
  printf("middle: inner returned %ld, faulted %d\n", v, faulted);
  return faulted ? 14 : v;
}
long outer(void) __dom("outer") __entry __perm("default", write) {
  return 1000 + middle(&outer_secret);
}

int main(void) {
  printf("main: outer returned %ld\n", outer());
  return 0;
}
