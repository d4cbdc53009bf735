// Throwing needs the default domain's memory (libstdc++ allocates the
// exception with malloc and keeps per-thread globals): an entry whose domain
// may not write the default domain cannot throw under mpk; its throw
// faults and the call fails with DIPC_EFAULT (14), not DIPC_EEXCEPTION.
// The domain still answers later calls. Control: under `none` nothing stops
// the same throw, which fails the call with DIPC_EEXCEPTION (131).
// REQUIRES: pku
// RUN: %dipc-clangxx -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=mpk %t 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefixes=CHECK,NONE
// CHECK: ok: returned 7, dipc_errno 0
// MPK-NEXT: throw: returned 0, dipc_errno 14
// NONE-NEXT: throw: returned 0, dipc_errno 131
// CHECK-NEXT: again: returned 7, dipc_errno 0
#include <dipc.h>
#include <stdio.h>

long work(int how) __dom("worker") __entry {
  if (how)
    throw 1;
  return 7;
}

int main() {
  long r = work(0);
  printf("ok: returned %ld, dipc_errno %d\n", r, dipc_errno);
  r = work(1);
  printf("throw: returned %ld, dipc_errno %d\n", r, dipc_errno);
  r = work(0);
  printf("again: returned %ld, dipc_errno %d\n", r, dipc_errno);
  return 0;
}
