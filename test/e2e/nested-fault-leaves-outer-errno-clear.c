// After a nested fault (main -> outer -> inner, inner crashes), outer sees
// DIPC_EFAULT for its call, but its own call returned normally, so main
// must see dipc_errno == 0 ("0 after a successful cross-domain call").
// outer's result shows it did see the fault (10 + 5). outer needs no
// permission on the default domain (only main prints). Then main's own
// call of inner faults (DIPC_EFAULT) and its next call, which returns
// normally, finds dipc_errno 0 again: the proxy's return path clears it
// (the caller stubs do not store it), under every backend.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -O0 -fdipc-recovery=try %s -o %t.try
// RUN: %dipc-bin-dir/dipc-run %t.try 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-sfi -O0 -fdipc-recovery=try %s -o %t.sfi-try
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi-try 2>&1 | FileCheck %s
// CHECK: main: outer returned 15, dipc_errno 0
// CHECK-NEXT: main: inner returned 0, dipc_errno 14
// CHECK-NEXT: main: outer returned 15, dipc_errno 0
#include <dipc.h>
#include <stdio.h>

long inner(void) __dom("inner") __entry { return *(volatile long *)0; }
long outer(void) __dom("outer") __entry {
  inner();
  return 5 + 10 * (dipc_errno == DIPC_EFAULT);
}

int main(void) {
  long r = outer();
  printf("main: outer returned %ld, dipc_errno %d\n", r, dipc_errno);
  r = inner();
  int e = dipc_errno; /* before printf */
  printf("main: inner returned %ld, dipc_errno %d\n", r, e);
  r = outer();
  printf("main: outer returned %ld, dipc_errno %d\n", r, dipc_errno);
  return 0;
}
