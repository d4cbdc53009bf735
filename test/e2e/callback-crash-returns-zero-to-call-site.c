// A callee crashing inside a callback (an entry called through its address)
// returns 0 to the pointer's call site with dipc_errno == DIPC_EFAULT: the
// call site is a plain indirect call with no setjmp buffer or landing pad
// (here in lib, which keeps its loop's values in callee-saved registers
// across the calls: they are restored), and the caller goes on. lib calls
// the pointer for 1..5 and the callback crashes on 3: the sum of squares
// without 9 is 46, with one fault. The KCS is empty afterwards and the
// callback's domain answers the next call. Before anycall stubs, lib's
// first call of the pointer main took stopped the process (SIGILL).
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 %s -o %t.sj0
// RUN: %dipc-bin-dir/dipc-run %t.sj0 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sj0 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O1 %s -o %t.sj1
// RUN: %dipc-bin-dir/dipc-run %t.sj1 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O2 %s -o %t.sj2
// RUN: %dipc-bin-dir/dipc-run %t.sj2 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O3 %s -o %t.sj3
// RUN: %dipc-bin-dir/dipc-run %t.sj3 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -Os %s -o %t.sjs
// RUN: %dipc-bin-dir/dipc-run %t.sjs 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O0 %s -o %t.try0
// RUN: %dipc-bin-dir/dipc-run %t.try0 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 %s -o %t.try2
// RUN: %dipc-bin-dir/dipc-run %t.try2 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.try2 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -Os %s -o %t.trys
// RUN: %dipc-bin-dir/dipc-run %t.trys 2>&1 | FileCheck %s
// Entries' addresses under -fdipc-sfi (anycall stubs: the call check
// allows them by the runtime's anycall table).
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s
// CHECK: lib's loop: sum 46, faults 1, checks 12345; errno 0, kcs 0
// CHECK-NEXT: main through the pointer: 0 errno 14 kcs 0
// CHECK-NEXT: next call: 16 errno 0 kcs 0
#include <dipc.h>
#include <dipc/rt.h>
#include <stdio.h>

long square(long x) __dom("app") __entry {
  if (x == 3)
    *(volatile int *)0 = 1;
  return x * x;
}

long lib_loop(long (*cb)(long)) __dom("lib") __entry {
  long sum = 0, faults = 0, checks = 0;
  for (long i = 1; i <= 5; i++) {
    long r = cb(i);
    faults += dipc_errno == DIPC_EFAULT;
    sum += r;
    checks = checks * 10 + i; // live across every call
  }
  return (sum * 100 + faults) * 100000 + checks;
}

int main(void) {
  long r = lib_loop(square);
  int err = dipc_errno;
  printf("lib's loop: sum %ld, faults %ld, checks %ld; errno %d, kcs %ld\n",
         r / 10000000, r / 100000 % 100, r % 100000, err, dipc_kcs_depth());
  long (*volatile fn)(long) = square;
  r = fn(3);
  err = dipc_errno;
  printf("main through the pointer: %ld errno %d kcs %ld\n", r, err,
         dipc_kcs_depth());
  r = fn(4);
  err = dipc_errno;
  printf("next call: %ld errno %d kcs %ld\n", r, err, dipc_kcs_depth());
  return 0;
}
