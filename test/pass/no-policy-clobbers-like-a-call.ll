; Without reg_integrity or reg_confidentiality the callee is trusted to keep
; callee-saved registers, like any call: the asm clobbers only caller-saved
; registers.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare i64 @get(i64)

; CHECK-LABEL: define i64 @caller(
; CHECK: asm sideeffect alignstack "# dipc caller stub: get
; CHECK-SAME: ~{rcx},~{rdx},~{rsi},~{rdi},~{r8},~{r9},~{r10},~{r11},~{xmm0}
; CHECK-NOT: ~{rbx}
; CHECK-NOT: ~{r12}
; CHECK: ret i64
define i64 @caller(i64 %a) {
  %r = call i64 @get(i64 %a)
  ret i64 %r
}
