; The stub's rsp input (it keeps shrink-wrapping from sinking the frame
; below the stub) is only rsp in the function that took it: an outlined
; stub takes its own, and its caller passes nothing for it.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc-frame,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define i64 @framed(
; CHECK-NOT: @llvm.stacksave
; CHECK: %r = call i64 @__dipc_outlined.framed(ptr %p, ptr poison)
; CHECK-LABEL: define internal i64 @__dipc_outlined.framed(ptr %0, ptr %1)
; CHECK-NEXT: %[[SP:.*]] = call ptr @llvm.stacksave.p0()
; CHECK-NEXT: call i64 asm sideeffect alignstack "# dipc caller stub: get{{.*}}", "={rax},{r11},{rsp},{{.*}}"(ptr %0, ptr %[[SP]])
define i64 @framed(ptr %slot, i64 %n) {
  %vla = alloca i8, i64 %n
  store volatile i8 0, ptr %vla
  %p = load ptr, ptr %slot
  %sp = call ptr @llvm.stacksave.p0()
  %r = call i64 asm sideeffect alignstack "# dipc caller stub: get\0A\09call *$1", "={rax},{r11},{rsp},~{rbp},~{memory}"(ptr %p, ptr %sp)
  ret i64 %r
}
declare ptr @llvm.stacksave.p0()
