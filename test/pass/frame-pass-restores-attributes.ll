; dipc-frame (last before codegen) gives every function that carries an
; inline caller stub, e.g. after inlining, no frame pointer and no red zone.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc-frame,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define i64 @inlined_into(
; CHECK-SAME: #[[A:[0-9]+]]
; CHECK-LABEL: define i64 @unrelated(
; CHECK-SAME: #[[B:[0-9]+]]
; CHECK-DAG: attributes #[[A]] = { noredzone "frame-pointer"="none" }
; CHECK-DAG: attributes #[[B]] = { "frame-pointer"="all" }
define i64 @inlined_into(ptr %slot) "frame-pointer"="all" {
  %p = load ptr, ptr %slot
  %r = call i64 asm sideeffect alignstack "# dipc caller stub: get\0A\09call *$1", "={rax},{r11},~{rbx},~{rbp},~{memory}"(ptr %p)
  ret i64 %r
}
define i64 @unrelated() "frame-pointer"="all" {
  ret i64 0
}
