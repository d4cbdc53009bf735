; An unannotated private constant (a string literal) used only by one
; domain's code joins that domain, unmergeable so it stays between the
; markers; one also used by the default domain stays where it is.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @work, ptr @dom, ptr null, i32 0, ptr null }], section "llvm.metadata"

; CHECK: @.str = private constant [4 x i8] c"row\00", section "dipc_rodata_db"
; CHECK: @.shared = private unnamed_addr constant [4 x i8] c"all\00"{{$}}
@.str = private unnamed_addr constant [4 x i8] c"row\00"
@.shared = private unnamed_addr constant [4 x i8] c"all\00"

declare void @puts(ptr)
define void @work() {
  call void @puts(ptr @.str)
  call void @puts(ptr @.shared)
  ret void
}
define void @outside() {
  call void @puts(ptr @.shared)
  ret void
}
