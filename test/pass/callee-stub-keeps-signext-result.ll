; The callee stub hands its result to the scrub asm widened to 64 bits the
; way the caller expects it: sign-extended for a signext return, so a
; negative char stays negative in eax.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@iso = private constant [36 x i8] c"dipc.iso_callee:reg_confidentiality\00", section "llvm.metadata"
@llvm.global.annotations = appending global [3 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @sign, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @sign, ptr @entry, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @sign, ptr @iso, ptr null, i32 0, ptr null }], section "llvm.metadata"

define signext i8 @sign(i64 %x) {
  %r = trunc i64 %x to i8
  ret i8 %r
}

; CHECK-LABEL: define internal signext i8 @__dipc_callee.sign(
; CHECK: %[[R:.*]] = call signext i8 @sign(
; CHECK: %[[W:.*]] = sext i8 %[[R]] to i64
; CHECK: call i64 asm sideeffect "# dipc callee stub: sign{{.*}}"(i64 %[[W]])
