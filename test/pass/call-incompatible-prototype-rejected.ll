; Calling a foreign entry through a prototype other than its declaration's
; (an unprototyped or cast call) would put arguments in the wrong registers:
; a compile error.
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc -disable-output %s 2>&1 | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare i32 @get(ptr)

; CHECK: error: {{.*}}in function caller i32 (): dipc: call to entry point 'get' of domain 'db' through prototype 'i32 (i64, i64)', but it is declared 'i32 (ptr)'
define i32 @caller() {
  %r = call i32 @get(i64 1, i64 2)
  ret i32 %r
}
