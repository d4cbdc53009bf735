; The red-zone trap: the `call` inside the stub pushes a return address
; below rsp, where a leaf function keeps locals without moving rsp. The
; stub's asm is alignstack and its function noredzone, so locals live above
; rsp. Control: the same asm call without them stores into the red zone.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc -S %s | llc -O2 -o - | FileCheck %s
; RUN: llc -O2 -o - %s | FileCheck %s --check-prefix=TRAP
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null }], section "llvm.metadata"
@slot = global ptr null

declare i64 @get()

; CHECK-LABEL: leaf:
; CHECK-NOT: -{{[0-9]+}}(%rsp)
; CHECK: callq *%r11
; CHECK-NOT: -{{[0-9]+}}(%rsp)
; CHECK: .Lfunc_end
define i64 @leaf(i64 %a) "frame-pointer"="none" {
  %buf = alloca [4 x i64]
  store volatile i64 %a, ptr %buf
  %r = call i64 @get()
  %v = load volatile i64, ptr %buf
  %s = add i64 %r, %v
  ret i64 %s
}

; TRAP-LABEL: unprotected:
; TRAP: movq %rdi, -{{[0-9]+}}(%rsp)
; TRAP: callq *%r11
define i64 @unprotected(i64 %a) "frame-pointer"="none" {
  %buf = alloca [4 x i64]
  store volatile i64 %a, ptr %buf
  %p = load ptr, ptr @slot
  %r = call i64 asm sideeffect "call *$1", "={rax},{r11},~{memory}"(ptr %p)
  %v = load volatile i64, ptr %buf
  %s = add i64 %r, %v
  ret i64 %s
}
