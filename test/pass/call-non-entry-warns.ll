; A direct call to a non-entry function of another domain, without a call
; grant, would fault once isolated: a warning naming both domains. The call
; stays direct (no stub: only entries have proxies).
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s 2>&1 | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @internal_helper, ptr @dom, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare void @internal_helper()

; CHECK: warning: {{.*}}in function caller void (): dipc: call to 'internal_helper' of domain 'db' from domain 'default', which is not an entry point (__entry) and has no call grant (__perm("db", call)): it faults when isolated
; CHECK-LABEL: define void @caller()
; CHECK-NEXT: call void @internal_helper()
define void @caller() {
  call void @internal_helper()
  ret void
}
