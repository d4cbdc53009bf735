; The pass reads the dIPC annotations but leaves @llvm.global.annotations
; alone (other tools and the attribute tests read it; it is never emitted).
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@other = private constant [6 x i8] c"other\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @work, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @work, ptr @other, ptr null, i32 0, ptr null }], section "llvm.metadata"

; CHECK: @llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @work, ptr @dom, ptr null, i32 0, ptr null }, { ptr, ptr, ptr, i32, ptr } { ptr @work, ptr @other, ptr null, i32 0, ptr null }], section "llvm.metadata"
; CHECK-LABEL: define void @work() section "dipc_text_db"
; CHECK: !dipc.lowered = !{}
define void @work() {
  ret void
}
