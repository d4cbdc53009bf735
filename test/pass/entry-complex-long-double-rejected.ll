; A complex long double result comes back in st0 and st1, which a proxy
; does not carry (one long double in st0 it does): rejected.
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc -disable-output %s 2>&1 | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare { x86_fp80, x86_fp80 } @get()

; CHECK: error: {{.*}}in function caller { x86_fp80, x86_fp80 } (): dipc: cannot call entry point 'get' of domain 'db' across domains: its result of type { x86_fp80, x86_fp80 } is not returned in rax/rdx/xmm0/xmm1/st0
define { x86_fp80, x86_fp80 } @caller() {
  %r = call { x86_fp80, x86_fp80 } @get()
  ret { x86_fp80, x86_fp80 } %r
}
