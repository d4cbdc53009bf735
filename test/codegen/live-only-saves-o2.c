// Register liveness at -O2: with reg_confidentiality the stub zeroes, so
// clobbers, every register but its arguments, and the allocator spills
// exactly the values live across the cross-domain call (1, 2, 3 of them),
// not all six callee-saved registers. (The prologue still pushes the
// callee-saved registers once per function: they hold the values of *its*
// caller, which SysV makes it preserve.) reg_integrity alone clobbers no
// callee-saved register: reg-integrity-saves-like-plain-call-o2.c.
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 -S -o - %s | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O2 -S -o - %s | FileCheck %s
#include <dipc.h>

long get(long) __dom("db") __entry;

// CHECK-LABEL: live1:
// CHECK-COUNT-1: 8-byte Spill
// CHECK-NOT: 8-byte Spill
// CHECK: # dipc caller stub: get
// CHECK: callq *%r11
// CHECK-NOT: 8-byte Spill
// CHECK: .Lfunc_end0:
long live1(long a) __iso_caller(reg_confidentiality) { return get(1) + a; }

// CHECK-LABEL: live2:
// CHECK-COUNT-2: 8-byte Spill
// CHECK-NOT: 8-byte Spill
// CHECK: callq *%r11
// CHECK-NOT: 8-byte Spill
// CHECK: .Lfunc_end1:
long live2(long a, long b) __iso_caller(reg_confidentiality) {
  return get(1) + a * b;
}

// CHECK-LABEL: live3:
// CHECK-COUNT-3: 8-byte Spill
// CHECK-NOT: 8-byte Spill
// CHECK: callq *%r11
// CHECK-NOT: 8-byte Spill
// CHECK: .Lfunc_end2:
long live3(long a, long b, long c) __iso_caller(reg_confidentiality) {
  return get(1) + a * b * c;
}
