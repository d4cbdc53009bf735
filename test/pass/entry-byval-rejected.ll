; An aggregate passed by value in memory (byval) cannot be described as
; registers: the entry is rejected where it is defined.
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc -disable-output %s 2>&1 | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null }], section "llvm.metadata"

%big = type { [8 x i64] }

; CHECK: error: {{.*}}in function get void (ptr): dipc: entry point 'get' cannot be called across domains: parameter 1 is passed in memory on the stack
define void @get(ptr byval(%big) %b) {
  ret void
}
