; A seventh integer argument would be passed on the stack, which the inline
; stub cannot place without moving rsp: rejected at the call.
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc -disable-output %s 2>&1 | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare void @get(i64, i64, i64, i64, i64, i64, i64)

; CHECK: error: {{.*}}in function caller void (): dipc: cannot call entry point 'get' of domain 'db' across domains: parameter 7 does not fit in argument registers and would go on the stack
define void @caller() {
  call void @get(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7)
  ret void
}
