; Without reg_confidentiality the callee stub only calls the entry: the
; proxies jump to it, so it exists for every entry, in the entry's domain.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @put, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @put, ptr @entry, ptr null, i32 0, ptr null }], section "llvm.metadata"

define void @put(ptr %p, double %d) {
  store double %d, ptr %p
  ret void
}

; CHECK-LABEL: define internal void @__dipc_callee.put(ptr %0, double %1)
; CHECK-SAME: section "dipc_text_db"
; CHECK-NEXT: call void @put(ptr %0, double %1)
; CHECK-NOT: asm
; CHECK-NEXT: ret void
