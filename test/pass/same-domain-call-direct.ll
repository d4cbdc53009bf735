; A call to an entry of the caller's own domain stays a direct call.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [3 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @helper, ptr @dom, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare i32 @get()

; CHECK-LABEL: define i32 @helper(
; CHECK-SAME: section "dipc_text_db"
; CHECK-NEXT: %r = call i32 @get()
; CHECK-NOT: asm
; CHECK: ret i32 %r
define i32 @helper() {
  %r = call i32 @get()
  ret i32 %r
}
