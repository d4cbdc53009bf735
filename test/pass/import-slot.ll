; Each (caller domain, caller policy, entry) has one slot per object: a
; comdat pointer in dipc_slots that starts as &__dipc_unresolved_import and
; that the stub loads the proxy address from.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null }], section "llvm.metadata"

; CHECK: $__dipc_slot.default.00.get = comdat any
; CHECK: @__dipc_slot.default.00.get = linkonce_odr hidden global ptr @__dipc_unresolved_import, section "dipc_slots", comdat, align 8
declare void @get()

; CHECK-LABEL: define void @caller(
; CHECK: %[[P:.*]] = load ptr, ptr @__dipc_slot.default.00.get
; CHECK: call void asm sideeffect alignstack "# dipc caller stub: get\0A\09call *$0", "{r11},{{.*}}"(ptr %[[P]])
; CHECK-LABEL: define void @again(
; CHECK: load ptr, ptr @__dipc_slot.default.00.get
define void @caller() {
  call void @get()
  ret void
}
define void @again() {
  call void @get()
  ret void
}
