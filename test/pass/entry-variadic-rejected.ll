; A variadic entry has no fixed signature for the proxy: a compile error
; naming it, not a miscompile.
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc -disable-output %s 2>&1 | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null }], section "llvm.metadata"

; CHECK: error: {{.*}}in function get i32 (ptr, ...): dipc: entry point 'get' cannot be called across domains: it is variadic
define i32 @get(ptr %fmt, ...) {
  ret i32 0
}
