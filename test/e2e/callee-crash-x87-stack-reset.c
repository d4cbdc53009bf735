// A callee that faults with values on the x87 stack (eight pushes: the
// stack is full) does not hand them to its caller: after the recovery the
// caller's long double arithmetic is exact (a full stack would turn its
// next push into a stack fault, NaN) and no x87 register holds the callee's
// value (pi, seen through fxsave). Both recovery styles; under `none` too
// (the recovery is the same code).
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O2 %s -o %t.sj
// RUN: %dipc-bin-dir/dipc-run %t.sj 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O0 %s -o %t.try
// RUN: %dipc-bin-dir/dipc-run %t.try 2>&1 | FileCheck %s
// CHECK: crash: returned 0, dipc_errno 14
// CHECK-NEXT: caller arithmetic exact, 0 x87 registers hold pi
// CHECK-NEXT: again: returned 7, dipc_errno 0
#include <dipc.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

long work(int crash) __dom("callee") __entry {
  if (crash) {
    __asm__ volatile("fldpi\n\tfldpi\n\tfldpi\n\tfldpi\n\t"
                     "fldpi\n\tfldpi\n\tfldpi\n\tfldpi" ::: "memory");
    *(volatile int *)0 = 1;
  }
  return 7;
}

static volatile long double three = 3.0L;

int main(void) {
  long r = work(1);
  printf("crash: returned %ld, dipc_errno %d\n", r, dipc_errno);
  long double x = three * 2 + 1;
  _Alignas(16) uint8_t area[512];
  __asm__ volatile("fxsave %0" : "=m"(area));
  long double pi;
  __asm__("fldpi" : "=t"(pi));
  int held = 0;
  for (int i = 0; i < 8; i++)
    held += !memcmp(area + 32 + 16 * i, &pi, 10);
  printf("caller arithmetic %s, %d x87 registers hold pi\n",
         x == 7.0L ? "exact" : "wrong", held);
  r = work(0);
  printf("again: returned %ld, dipc_errno %d\n", r, dipc_errno);
  return 0;
}
