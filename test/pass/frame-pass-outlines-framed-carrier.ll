; A stub inlined (late, or by LTO) into a function that keeps a frame
; pointer moves into an outlined function without one, so ~{rbp} holds;
; an invoke stays an invoke, and setjmp buffers get the frame pointer.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc-frame,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define i64 @framed(
; CHECK: %[[FP:.*]] = call ptr @llvm.frameaddress.p0(i32 0)
; CHECK-NEXT: store ptr %[[FP]], ptr %buf
; CHECK-NEXT: call i32 @llvm.eh.sjlj.setjmp(ptr %buf)
; CHECK: %r = call i64 @__dipc_outlined.framed(ptr %p)
; CHECK: invoke void @__dipc_outlined.framed.1(ptr %p)
; CHECK-NEXT: to label %done unwind label %pad
; CHECK-LABEL: define internal i64 @__dipc_outlined.framed(ptr %0)
; CHECK-SAME: #[[OUT:[0-9]+]]
; CHECK-NEXT: call i64 asm sideeffect alignstack "# dipc caller stub: get
; CHECK-LABEL: define internal void @__dipc_outlined.framed.1(
; CHECK-NEXT: call void asm sideeffect alignstack unwind "# dipc caller stub: put
; CHECK: attributes #[[OUT]] = { noinline noredzone uwtable "frame-pointer"="none" }
define i64 @framed(ptr %slot, i64 %n) personality ptr @__gcc_personality_v0 {
  %buf = alloca [5 x ptr], align 16
  %vla = alloca i8, i64 %n
  store volatile i8 0, ptr %vla
  %j = call i32 @llvm.eh.sjlj.setjmp(ptr %buf)
  %p = load ptr, ptr %slot
  %r = call i64 asm sideeffect alignstack "# dipc caller stub: get\0A\09call *$1", "={rax},{r11},~{rbx},~{rbp},~{memory}"(ptr %p)
  invoke void asm sideeffect alignstack unwind "# dipc caller stub: put\0A\09call *$0", "{r11},~{rbx},~{rbp},~{memory}"(ptr %p)
      to label %done unwind label %pad
done:
  ret i64 %r
pad:
  %lp = landingpad { ptr, i32 } cleanup
  ret i64 0
}
declare i32 @llvm.eh.sjlj.setjmp(ptr)
declare i32 @__gcc_personality_v0(...)
