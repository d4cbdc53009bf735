; Under dipc-sfi, what the checks cannot see is a compile error naming the
; function and the reason: user inline asm (even one that copies a stub's
; tag: only the passes' own asm carries the call-site attribute
; "dipc-asm"), accesses through a segment address space, and intrinsics
; that access memory in ways the pass does not describe, a store to the
; thread's public page through gs included (the caller stubs made one for
; dipc_errno before the proxies cleared it). The passes' own asm is
; accepted.
; RUN: rm -rf %t && split-file %s %t
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi -disable-output %t/user_asm.ll 2>&1 | FileCheck %t/user_asm.ll
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi -disable-output %t/forged_tag.ll 2>&1 | FileCheck %t/forged_tag.ll
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi -disable-output %t/seg_gs.ll 2>&1 | FileCheck %t/seg_gs.ll
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi -disable-output %t/seg_fs.ll 2>&1 | FileCheck %t/seg_fs.ll
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi -disable-output %t/gs_public_page.ll 2>&1 | FileCheck %t/gs_public_page.ll
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi -disable-output %t/gs_runtime_state.ll 2>&1 | FileCheck %t/gs_runtime_state.ll
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi -disable-output %t/mxcsr.ll 2>&1 | FileCheck %t/mxcsr.ll
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi -S %t/own.ll | FileCheck %t/own.ll --check-prefix=OWN

;--- user_asm.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK: error: {{.*}}dipc: -fdipc-sfi cannot check 'user_asm': it contains inline assembly, whose memory accesses cannot be checked
define i64 @user_asm(ptr %p) {
  %v = call i64 asm sideeffect "movq ($1), $0", "=r,r"(ptr %p)
  ret i64 %v
}

;--- forged_tag.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK: error: {{.*}}dipc: -fdipc-sfi cannot check 'forged_tag': it contains inline assembly
define void @forged_tag(ptr %p) {
  call void asm sideeffect "# dipc caller stub: x\0A\09movq $$0, ($0)", "r"(ptr %p)
  ret void
}

;--- seg_gs.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK: error: {{.*}}dipc: -fdipc-sfi cannot check 'seg_gs': it accesses memory through address space 256 (a __seg_gs or __seg_fs pointer), whose linear address the check cannot compute
define i32 @seg_gs(ptr addrspace(256) %p) {
  %v = load i32, ptr addrspace(256) %p
  ret i32 %v
}

;--- gs_public_page.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; dipc_errno's word, inside the thread's public page.
; CHECK: error: {{.*}}dipc: -fdipc-sfi cannot check 'gs_public_page': it accesses memory through address space 256
define void @gs_public_page() {
  store volatile i32 0, ptr addrspace(256) inttoptr (i64 260096 to ptr addrspace(256))
  ret void
}

;--- seg_fs.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK: error: {{.*}}dipc: -fdipc-sfi cannot check 'seg_fs': it accesses memory through address space 257
define void @seg_fs() {
  store i64 0, ptr addrspace(257) inttoptr (i64 40 to ptr addrspace(257))
  ret void
}

;--- gs_runtime_state.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK: error: {{.*}}dipc: -fdipc-sfi cannot check 'gs_runtime_state': it accesses memory through address space 256
define i32 @gs_runtime_state() {
  %v = load i32, ptr addrspace(256) inttoptr (i64 40 to ptr addrspace(256))
  ret i32 %v
}

;--- mxcsr.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
declare void @llvm.x86.sse.ldmxcsr(ptr)

; CHECK: error: {{.*}}dipc: -fdipc-sfi cannot check 'mxcsr': intrinsic 'llvm.x86.sse.ldmxcsr' accesses memory in a way the checks do not describe
define void @mxcsr(ptr %p) {
  call void @llvm.x86.sse.ldmxcsr(ptr %p)
  ret void
}

;--- own.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; OWN-LABEL: define void @own(
; OWN: call void asm sideeffect "movq $0, %gs:0x3f810", "r"(i64 0) [[OWNASM:#[0-9]+]]
; OWN: attributes [[OWNASM]] = { "dipc-asm" }
define void @own() {
  call void asm sideeffect "movq $0, %gs:0x3f810", "r"(i64 0) "dipc-asm"
  ret void
}
