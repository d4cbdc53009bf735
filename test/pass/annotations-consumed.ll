; dIPC facts are removed from @llvm.global.annotations; other annotations
; (used by other tools) stay.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@other = private constant [6 x i8] c"other\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @work, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @work, ptr @other, ptr null, i32 0, ptr null }], section "llvm.metadata"

; CHECK-NOT: dipc.dom
; CHECK: @other = private constant [6 x i8] c"other\00"
; CHECK: @llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @work, ptr @other, ptr null, i32 0, ptr null }], section "llvm.metadata"
; CHECK-LABEL: define void @work() section "dipc_text_db"
define void @work() {
  ret void
}
