; With reg_integrity the stub's asm clobbers the callee-saved registers, so
; the register allocator saves what is live across the call; the caller
; loses its frame pointer and red zone.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%pass-plugin -passes='default<O2>' -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@iso = private constant [30 x i8] c"dipc.iso_caller:reg_integrity\00", section "llvm.metadata"
@llvm.global.annotations = appending global [3 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @caller, ptr @iso, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare i64 @get(i64)

; CHECK-LABEL: define {{.*}}i64 @caller(
; CHECK-NOT: call i64 @get
; CHECK: asm sideeffect alignstack "# dipc caller stub: get{{.*}}call *$2", "={rax},{rdi},{r11},{{.*}}~{rbx},~{rbp},~{r12},~{r13},~{r14},~{r15},{{.*}}~{memory}
; CHECK: attributes [[ATTRS:#[0-9]+]] = {{.*}}noredzone{{.*}}"frame-pointer"="none"
define i64 @caller(i64 %a) "frame-pointer"="all" {
  %r = call i64 @get(i64 %a)
  ret i64 %r
}
