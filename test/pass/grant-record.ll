; __perm(dom, perm) on an item of domain D becomes a grant record
; {from D, to dom, perm} (call = 1, read = 2, write = 3).
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [13 x i8] c"dipc.dom:web\00", section "llvm.metadata"
@perm = private constant [19 x i8] c"dipc.perm:db:write\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @serve, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @serve, ptr @perm, ptr null, i32 0, ptr null }], section "llvm.metadata"

; CHECK-DAG: @[[WEB:__dipc_name[.0-9]*]] = private constant [4 x i8] c"web\00", section "dipc_names"
; CHECK-DAG: @[[DB:__dipc_name[.0-9]*]] = private constant [3 x i8] c"db\00", section "dipc_names"
; CHECK: @__dipc_grant.web.db = internal constant { i32, i32, i64, i64, i32, i32 } { i32 1, i32 32, i64 sub (i64 ptrtoint (ptr @[[WEB]] to i64), {{.*}}, i64 sub (i64 ptrtoint (ptr @[[DB]] to i64), {{.*}}, i32 3, i32 0 }, section "dipc_grants", align 8
define void @serve() {
  ret void
}
