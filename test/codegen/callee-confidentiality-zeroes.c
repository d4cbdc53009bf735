// With reg_confidentiality on the entry, its callee stub zeroes every
// caller-saved register except the result (rax), the wider vector state
// through the runtime vector's scrub routine, and returns at once.
// RUN: %dipc-clang -fdipc -O2 -S -o - %s | FileCheck %s
#include <dipc.h>

long mix(long, long) __dom("db") __entry __iso_callee(reg_confidentiality);
long mix(long a, long b) { return a ^ (b * 7); }

// CHECK-LABEL: __dipc_callee.mix:
// CHECK: # dipc callee stub: mix
// CHECK-NOT: %eax
// CHECK-NEXT: callq *2146439200
// CHECK-NEXT: xorl %ecx, %ecx
// CHECK-NEXT: xorl %edx, %edx
// CHECK-NEXT: xorl %esi, %esi
// CHECK-NEXT: xorl %edi, %edi
// CHECK-NEXT: xorl %r8d, %r8d
// CHECK-NEXT: xorl %r9d, %r9d
// CHECK-NEXT: xorl %r10d, %r10d
// CHECK-NEXT: xorl %r11d, %r11d
// CHECK-NEXT: xorps %xmm0, %xmm0
// CHECK-COUNT-14: xorps %xmm{{[0-9]+}}, %xmm
// CHECK-NEXT: xorps %xmm15, %xmm15
// CHECK-NEXT: #NO_APP
// CHECK-NEXT: retq
