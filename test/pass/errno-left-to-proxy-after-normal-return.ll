; The stub does not write dipc_errno after the cross-domain call returns
; normally (docs/abi.md §4), in either recovery style: the runtime's proxy
; cleared it on its way back (so a fault nested inside the callee does not
; show through: e2e/nested-fault-leaves-outer-errno-clear.c), and the fault
; path keeps the DIPC_EFAULT the runtime's recovery wrote. Nothing reaches
; dipc_errno through a call to libdipc either.
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
; CHECK-NOT: addrspace(256)
; CHECK: br label %dipc.join
; CHECK-NOT: addrspace(256)
; CHECK-NOT: __dipc_errno_location
define void @caller() {
  call void @get()
  ret void
}
