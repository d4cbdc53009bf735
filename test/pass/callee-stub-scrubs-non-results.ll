; An entry with reg_confidentiality gets a callee stub that calls it and then
; zeroes every caller-saved register except the result (rax), the wider
; vector state (runtime vector's scrub routine) and the flags; no red zone,
; since the asm calls.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@iso = private constant [36 x i8] c"dipc.iso_callee:reg_confidentiality\00", section "llvm.metadata"
@llvm.global.annotations = appending global [3 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @iso, ptr null, i32 0, ptr null }], section "llvm.metadata"

define i32 @get(i32 %a) {
  ret i32 %a
}

; CHECK-LABEL: define internal i32 @__dipc_callee.get(i32 %0)
; CHECK-SAME: #[[STUB:[0-9]+]] section "dipc_text_db"
; CHECK: %[[R:.*]] = call i32 @get(i32 %0)
; CHECK: %[[W:.*]] = zext i32 %[[R]] to i64
; CHECK: call i64 asm sideeffect "# dipc callee stub: get\0A\09call *2146439200\0A\09xorl %ecx, %ecx\0A\09xorl %edx, %edx\0A\09xorl %esi, %esi\0A\09xorl %edi, %edi\0A\09xorl %r8d, %r8d\0A\09xorl %r9d, %r9d\0A\09xorl %r10d, %r10d\0A\09xorl %r11d, %r11d\0A\09xorps %xmm0, %xmm0
; CHECK-SAME: xorps %xmm15, %xmm15", "={rax},0,~{rcx},~{rdx},~{rsi},~{rdi},~{r8},~{r9},~{r10},~{r11},~{xmm0},
; CHECK-SAME: ~{xmm31},~{k0},~{k1},~{k2},~{k3},~{k4},~{k5},~{k6},~{k7},~{dirflag},~{fpsr},~{flags}"(i64 %[[W]])
; CHECK: ret i32
; CHECK: attributes #[[STUB]] = { noinline noredzone }
