; With reg_confidentiality the caller stub zeroes every register that is not
; an argument (one here: rdi) before calling the proxy in r11, the wider
; vector state (ymm/zmm upper halves, zmm16-31, k0-7) through the runtime
; vector's scrub routine (DIPC_VECTOR_SCRUB = 0x7ff01020).
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@iso = private constant [36 x i8] c"dipc.iso_caller:reg_confidentiality\00", section "llvm.metadata"
@llvm.global.annotations = appending global [3 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @iso, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare i64 @get(i64)

; CHECK-LABEL: define i64 @caller(
; CHECK: "# dipc caller stub: get\0A\09call *2146439200\0A\09xorl %eax, %eax\0A\09xorl %ebx, %ebx\0A\09xorl %ebp, %ebp\0A\09xorl %r10d, %r10d\0A\09xorl %r12d, %r12d\0A\09xorl %r13d, %r13d\0A\09xorl %r14d, %r14d\0A\09xorl %r15d, %r15d\0A\09xorl %esi, %esi\0A\09xorl %edx, %edx\0A\09xorl %ecx, %ecx\0A\09xorl %r8d, %r8d\0A\09xorl %r9d, %r9d\0A\09xorps %xmm0, %xmm0
; CHECK-SAME: xorps %xmm15, %xmm15\0A\09call *$2"
; CHECK-NOT: xorl %edi
; CHECK-SAME: ~{rbx},~{rbp},~{r12},~{r13},~{r14},~{r15}
; CHECK-SAME: ~{xmm15},~{xmm16},
; CHECK-SAME: ~{xmm31},~{k0},~{k1},~{k2},~{k3},~{k4},~{k5},~{k6},~{k7},~{memory}
define i64 @caller(i64 %a) {
  %r = call i64 @get(i64 %a)
  ret i64 %r
}
