; Entries of the default domain (callbacks) are foreign to named domains:
; a call from db to one is a cross-domain call with an import from db, whose
; slot is in db's own data pages.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @notify, ptr @entry, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @work, ptr @dom, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare void @notify(i32)

; CHECK: @__dipc_slot.db.00.notify = linkonce_odr hidden global ptr @__dipc_unresolved_import, section "dipc_data_db", align 8
; CHECK: @__dipc_import.db.notify = internal constant
; CHECK-LABEL: define void @work()
; CHECK-SAME: section "dipc_text_db"
; CHECK: load ptr, ptr @__dipc_slot.db.00.notify
; CHECK: # dipc caller stub: notify
define void @work() {
  call void @notify(i32 7)
  ret void
}
