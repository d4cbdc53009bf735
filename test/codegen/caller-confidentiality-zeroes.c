// With reg_confidentiality the caller zeroes every non-argument integer and
// vector register right before calling the proxy (get takes rdi and rsi;
// r11 holds the proxy address, which the loader wrote and is public), after
// the runtime vector's scrub routine zeroed the wider vector state (ymm/zmm
// upper halves, zmm16-31, k0-7) that this CPU has.
// RUN: %dipc-clang -fdipc -O2 -S -o - %s | FileCheck %s
// RUN: %dipc-clang -fdipc -O0 -S -o - %s | FileCheck %s
#include <dipc.h>

long get(long, long) __dom("db") __entry;

// CHECK-LABEL: caller:
// CHECK: movq {{.*}}, %r11
// CHECK: # dipc caller stub: get
// CHECK-NEXT: callq *2146439200
// CHECK-NEXT: xorl %eax, %eax
// CHECK-NEXT: xorl %ebx, %ebx
// CHECK-NEXT: xorl %ebp, %ebp
// CHECK-NEXT: xorl %r10d, %r10d
// CHECK-NEXT: xorl %r12d, %r12d
// CHECK-NEXT: xorl %r13d, %r13d
// CHECK-NEXT: xorl %r14d, %r14d
// CHECK-NEXT: xorl %r15d, %r15d
// CHECK-NEXT: xorl %edx, %edx
// CHECK-NEXT: xorl %ecx, %ecx
// CHECK-NEXT: xorl %r8d, %r8d
// CHECK-NEXT: xorl %r9d, %r9d
// CHECK-NEXT: xorps %xmm0, %xmm0
// CHECK-COUNT-14: xorps %xmm{{[0-9]+}}, %xmm
// CHECK-NEXT: xorps %xmm15, %xmm15
// CHECK-NEXT: callq *%r11
long caller(long secret) __iso_caller(reg_confidentiality) {
  return get(1, 2) + secret;
}
