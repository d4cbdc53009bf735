; try-style recovery: nothing runs on the normal path; the call is an invoke
; of `asm unwind` whose cleanup pad calls __dipc_fault_landed and yields 0.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -dipc-recovery=try -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare i32 @get()

; CHECK-LABEL: define i32 @caller() {{.*}}personality ptr @__gcc_personality_v0 {
; CHECK-NOT: setjmp
; CHECK: invoke i64 asm sideeffect alignstack unwind "# dipc caller stub: get
; CHECK-NEXT: to label %dipc.ok unwind label %dipc.fault
; CHECK: dipc.fault:
; CHECK-NEXT: %[[LP:.*]] = landingpad { ptr, i32 }
; CHECK-NEXT: cleanup
; CHECK-NEXT: %[[EXN:.*]] = extractvalue { ptr, i32 } %[[LP]], 0
; CHECK-NEXT: call void @__dipc_fault_landed(ptr %[[EXN]])
; CHECK: dipc.ok:
; CHECK-NEXT: br label %dipc.join
; CHECK: phi i64 [ %{{.*}}, %dipc.ok ], [ 0, %dipc.fault ]
; CHECK: attributes #{{[0-9]+}} = { noredzone uwtable "frame-pointer"="none" }
define i32 @caller() {
  %r = call i32 @get()
  ret i32 %r
}
