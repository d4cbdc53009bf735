; The pass marks a module it lowered (!dipc.lowered): running it twice gives
; the same module as running it once.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s -o %t.once.ll
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,dipc,verify -S %s -o %t.twice.ll
; RUN: diff %t.once.ll %t.twice.ll
; RUN: FileCheck %s < %t.twice.ll
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null }], section "llvm.metadata"

; CHECK: @__dipc_entry.get =
; CHECK: @__dipc_import.default.get =
; CHECK-LABEL: define i32 @get(
define i32 @get() {
  ret i32 1
}
; CHECK-LABEL: define i32 @caller(
; CHECK: # dipc caller stub: get
; CHECK: !dipc.lowered = !{}
define i32 @caller() {
  %r = call i32 @get()
  ret i32 %r
}
