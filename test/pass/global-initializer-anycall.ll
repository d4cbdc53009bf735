; A foreign entry in a global's initializer (a table of function pointers)
; is replaced by its anycall stub too, every occurrence of it.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null }], section "llvm.metadata"

; CHECK: @table = global [3 x ptr] [ptr @__dipc_anycall.get, ptr @local, ptr @__dipc_anycall.get]
@table = global [3 x ptr] [ptr @get, ptr @local, ptr @get]

declare void @get()
define void @local() {
  ret void
}
; CHECK-LABEL: define linkonce_odr hidden void @__dipc_anycall.get()
; CHECK-NEXT: call void asm sideeffect "leaq ${0:c}(%rip), %r11\0A\09jmpq *0x7ff01038"
