; If, after inlining, a caller stub ends up in a function that needs a frame
; pointer (a variable-sized alloca), rbp cannot be protected: dipc-frame
; reports it instead of emitting a stub whose ~{rbp} clobber is ignored.
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc-frame -disable-output %s 2>&1 | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

; CHECK: error: {{.*}}in function framed i64 (ptr, i64): dipc: a cross-domain call was inlined into 'framed', which needs a frame pointer (variable-sized or over-aligned stack objects), so rbp could not be protected; mark the inlined function noinline
define i64 @framed(ptr %slot, i64 %n) {
  %buf = alloca i8, i64 %n
  store volatile i8 0, ptr %buf
  %p = load ptr, ptr %slot
  %r = call i64 asm sideeffect alignstack "# dipc caller stub: get\0A\09call *$1", "={rax},{r11},~{rbx},~{rbp},~{memory}"(ptr %p)
  ret i64 %r
}
