; With reg_integrity alone the stub's asm clobbers no callee-saved register:
; the proxy's return path restores rbx, rbp and r12-r15 from its KCS entry
; (rt/gate.S), so the register allocator treats them as across a plain call.
; reg_confidentiality zeroes them before the call, so its asm clobbers them
; and the allocator saves what is live there. Either way the caller loses
; its frame pointer and red zone.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%pass-plugin -passes='default<O2>' -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@iso = private constant [30 x i8] c"dipc.iso_caller:reg_integrity\00", section "llvm.metadata"
@conf = private constant [36 x i8] c"dipc.iso_caller:reg_confidentiality\00", section "llvm.metadata"
@llvm.global.annotations = appending global [4 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @caller, ptr @iso, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @hider, ptr @conf, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare i64 @get(i64)

; CHECK-LABEL: define {{.*}}i64 @caller(
; CHECK-NOT: call i64 @get
; CHECK: asm sideeffect alignstack "# dipc caller stub: get{{.*}}call *$2", "={rax},{rdi},{r11},{{.*}}~{rcx},{{.*}}~{r11},~{xmm0}
; CHECK-NOT: ~{rbx}
; CHECK-NOT: ~{rbp}
; CHECK-NOT: ~{r12}
; CHECK-NOT: ~{r15}
; CHECK: ret i64
define i64 @caller(i64 %a) "frame-pointer"="all" {
  %r = call i64 @get(i64 %a)
  ret i64 %r
}

; CHECK-LABEL: define {{.*}}i64 @hider(
; CHECK: asm sideeffect alignstack "# dipc caller stub: get{{.*}}xorl %ebx, %ebx{{.*}}call *$2", "={rax},{rdi},{r11},{{.*}}~{rbx},~{rbp},~{r12},~{r13},~{r14},~{r15},{{.*}}~{memory}
; CHECK: ret i64
define i64 @hider(i64 %a) "frame-pointer"="all" {
  %r = call i64 @get(i64 %a)
  ret i64 %r
}

; CHECK: attributes [[ATTRS:#[0-9]+]] = {{.*}}noredzone{{.*}}"frame-pointer"="none"
