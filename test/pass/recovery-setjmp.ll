; setjmp-style recovery: the stub fills a __builtin_setjmp buffer, arms it
; with the runtime just before the call (__dipc_setjmp_arm, called through
; the runtime vector at 0x7ff01000, not the PLT), and on a fault resumes in a
; block that sets dipc_errno = DIPC_EFAULT (14) through gs and yields 0.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -dipc-recovery=setjmp -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare i32 @get()

; CHECK-LABEL: define i32 @caller(
; CHECK: %[[BUF:.*]] = alloca [5 x ptr], align 16
; CHECK: store ptr null, ptr %[[BUF]]
; CHECK: %[[SP:.*]] = call ptr @llvm.stacksave.p0()
; CHECK: store ptr %[[SP]], ptr
; CHECK: %[[J:.*]] = call i32 @llvm.eh.sjlj.setjmp(ptr %[[BUF]])
; CHECK: br i1 {{.*}}, label %dipc.fault, label %dipc.call
; CHECK: dipc.call:
; CHECK-NEXT: %[[ARM:.*]] = load ptr, ptr inttoptr (i64 2146439168 to ptr), align 8, !invariant.load
; CHECK-NEXT: call void %[[ARM]](ptr %[[BUF]])
; CHECK: call i64 asm sideeffect alignstack "# dipc caller stub: get
; CHECK: dipc.fault:
; CHECK-NEXT: %[[WHY:.*]] = load volatile i32, ptr addrspace(256) inttoptr (i64 258048 to ptr addrspace(256)), align 4
; CHECK-NEXT: %[[TO:.*]] = icmp eq i32 %[[WHY]], 110
; CHECK-NEXT: %[[CODE:.*]] = select i1 %[[TO]], i32 110, i32 14
; CHECK-NEXT: store volatile i32 %[[CODE]], ptr addrspace(256) inttoptr (i64 258048 to ptr addrspace(256)), align 4
; CHECK: phi i64 [ %{{.*}}, %dipc.call ], [ 0, %dipc.fault ]
define i32 @caller() {
  %r = call i32 @get()
  ret i32 %r
}
; CHECK-NOT: @__dipc_setjmp_arm
; CHECK-NOT: @__dipc_errno_location
