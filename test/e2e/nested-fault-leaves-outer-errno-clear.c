// After a nested fault (main -> outer -> inner, inner crashes), outer sees
// DIPC_EFAULT for its call, but its own call returned normally, so main
// must see dipc_errno == 0 ("0 after a successful cross-domain call").
// The first check shows outer did see the fault.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s
// CHECK: outer: inner faulted 1
// CHECK-NEXT: main: outer returned 5, dipc_errno 0
#include <dipc.h>
#include <stdio.h>

long inner(void) __dom("inner") __entry { return *(volatile long *)0; }
// outer calls another domain: see nested-domains-isolated.c for the grant.
long outer(void) __dom("outer") __entry __perm("default", write) {
  inner();
  printf("outer: inner faulted %d\n", dipc_errno == DIPC_EFAULT);
  return 5;
}

int main(void) {
  long r = outer();
  printf("main: outer returned %ld, dipc_errno %d\n", r, dipc_errno);
  return 0;
}
