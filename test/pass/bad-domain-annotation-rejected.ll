; Hand-written IR is checked too: a domain name must be a C identifier, as
; it becomes part of section and symbol names.
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc -disable-output %s 2>&1 | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [15 x i8] c"dipc.dom:my-db\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @work, ptr @dom, ptr null, i32 0, ptr null }], section "llvm.metadata"

; CHECK: error: dipc: annotation 'dipc.dom:my-db' on 'work': domain names must be C identifiers
define void @work() {
  ret void
}
