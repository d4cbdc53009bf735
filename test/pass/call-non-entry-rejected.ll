; Another domain can only be entered through its entry points: a direct
; call to a non-entry function of domain db from the default domain is an
; error.
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc -disable-output %s 2>&1 | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @internal_helper, ptr @dom, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare void @internal_helper()

; CHECK: error: {{.*}}in function caller void (): dipc: call to 'internal_helper' of domain 'db' from domain 'default': only entry points (__entry) can be called across domains
define void @caller() {
  call void @internal_helper()
  ret void
}
