; Arguments and results are pinned to their SysV registers: pointers and
; integers in rdi, rsi, ..., doubles in xmm0, ...; a { i64, double } result
; comes back in rax and xmm0. The import records int_args=2 vec_args=2
; int_results=1 vec_results=1.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare { i64, double } @get(ptr, double, i64, float)

; CHECK: @__dipc_import.default.get = {{.*}} i8 2, i8 2, i8 1, i8 1, i16 0, i8 0, i8 0,
; CHECK-LABEL: define { i64, double } @caller(
; CHECK: %[[R:.*]] = call { i64, double } asm sideeffect alignstack "# dipc caller stub: get\0A\09call *$6", "={rax},={xmm0},{rdi},{xmm0},{rsi},{xmm1},{r11},
; CHECK-SAME: (ptr %p, double %d, i64 %n, float %f, ptr
; CHECK: %[[I:.*]] = extractvalue { i64, double } %{{.*}}, 0
; CHECK: insertvalue { i64, double } poison, i64 %[[I]], 0
define { i64, double } @caller(ptr %p, double %d, i64 %n, float %f) {
  %r = call { i64, double } @get(ptr %p, double %d, i64 %n, float %f)
  ret { i64, double } %r
}
