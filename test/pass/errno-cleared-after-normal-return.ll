; The stub stores 0 to dipc_errno after the cross-domain call returns
; normally (docs/abi.md §4), in both recovery styles: a fault nested inside
; the callee must not show through a normal return, and the fault path
; keeps its DIPC_EFAULT. dipc_errno is reached through gs (the thread's
; public page, include/dipc/abi.h), never through a call to libdipc.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -dipc-recovery=try -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare void @get()

; CHECK-LABEL: define void @caller(
; CHECK-NOT: store i32 0
; CHECK: asm sideeffect alignstack {{(unwind )?}}"# dipc caller stub: get
; CHECK-NOT: store {{.*}}i32 14
; CHECK: store volatile i32 0, ptr addrspace(256) inttoptr (i64 260096 to ptr addrspace(256)), align 4
; CHECK-NEXT: br label %dipc.join
; CHECK-NOT: __dipc_errno_location
define void @caller() {
  call void @get()
  ret void
}
