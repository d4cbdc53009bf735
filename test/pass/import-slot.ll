; Each (caller domain, caller policy, entry) has one slot per object that
; starts as &__dipc_unresolved_import and that the stub loads the proxy
; address from. The default domain's slots are comdat pointers in
; dipc_slots; a named domain's slots are in its own data pages (between its
; page markers), so that its stubs need no access to the default domain:
; weak (linkonce_odr) without a comdat, since a comdat copy would be an
; input section of its own that the linker may place past the end marker.
; The import record points at the slot.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@mid = private constant [13 x i8] c"dipc.dom:mid\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [3 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @mid_caller, ptr @mid, ptr null, i32 0, ptr null }], section "llvm.metadata"

; CHECK: $__dipc_slot.default.00.get = comdat any
; CHECK-NOT: $__dipc_slot.mid
; CHECK: @__dipc_begin.data.mid = internal global [1 x i8] zeroinitializer, section "dipc_data_mid", align 4096
; CHECK-DAG: @__dipc_slot.default.00.get = linkonce_odr hidden global ptr @__dipc_unresolved_import, section "dipc_slots", comdat, align 8
; CHECK-DAG: @__dipc_slot.mid.00.get = linkonce_odr hidden global ptr @__dipc_unresolved_import, section "dipc_data_mid", align 8
; CHECK: @__dipc_end.data.mid = internal global [1 x i8] zeroinitializer, section "dipc_data_mid", align 4096
; CHECK-DAG: @__dipc_import.default.get = {{.*}} ptrtoint (ptr @__dipc_slot.default.00.get to i64)
; CHECK-DAG: @__dipc_import.mid.get = {{.*}} ptrtoint (ptr @__dipc_slot.mid.00.get to i64)
declare void @get()

; CHECK-LABEL: define void @caller(
; CHECK: %[[P:.*]] = load ptr, ptr @__dipc_slot.default.00.get
; CHECK: %[[SP:.*]] = call ptr @llvm.stacksave.p0()
; CHECK: call void asm sideeffect alignstack "# dipc caller stub: get\0A\09call *$0", "{r11},{rsp},{{.*}}"(ptr %[[P]], ptr %[[SP]])
; CHECK-LABEL: define void @again(
; CHECK: load ptr, ptr @__dipc_slot.default.00.get
; CHECK-LABEL: define void @mid_caller(
; CHECK-SAME: section "dipc_text_mid"
; CHECK: load ptr, ptr @__dipc_slot.mid.00.get
define void @caller() {
  call void @get()
  ret void
}
define void @again() {
  call void @get()
  ret void
}
define void @mid_caller() {
  call void @get()
  ret void
}
