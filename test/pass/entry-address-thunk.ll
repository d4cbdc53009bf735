; Taking the address of a foreign entry yields a thunk in the caller's
; domain: calling it still crosses through the slot.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare i64 @get(i64)
declare void @register_callback(ptr)

; CHECK-LABEL: define void @caller(
; CHECK-NEXT: call void @register_callback(ptr @__dipc_thunk.default.00.get)
define void @caller() {
  call void @register_callback(ptr @get)
  ret void
}

; CHECK-LABEL: define internal i64 @__dipc_thunk.default.00.get(i64 %0)
; CHECK: load ptr, ptr @__dipc_slot.default.00.get
; CHECK: call i64 asm sideeffect alignstack "# dipc caller stub: get
; CHECK-SAME: (i64 %0, ptr
; CHECK: attributes #{{[0-9]+}} = { noinline noredzone uwtable "frame-pointer"="none" }
