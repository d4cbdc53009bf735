; With a call grant (__perm("db", call) on an item of the calling domain)
; a direct call to a non-entry function of db is allowed silently.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s 2>&1 | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@perm = private constant [18 x i8] c"dipc.perm:db:call\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @internal_helper, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @caller, ptr @perm, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare void @internal_helper()

; CHECK-NOT: warning
; CHECK: @__dipc_grant.default.db = {{.*}} i32 1, i32 0 }, section "dipc_grants"
; CHECK-LABEL: define void @caller()
; CHECK-NEXT: call void @internal_helper()
define void @caller() {
  call void @internal_helper()
  ret void
}
