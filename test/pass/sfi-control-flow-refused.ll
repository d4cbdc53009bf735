; Under dipc-sfi-cfi, a function whose entry the call magic cannot precede,
; or whose return cannot be checked, is a compile error naming it: a
; musttail call (the caller's return would be the callee's), prefix or
; prologue data of its own, a patchable entry, kcfi.
; RUN: rm -rf %t && split-file %s %t
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi,dipc-sfi-cfi -disable-output %t/musttail.ll 2>&1 | FileCheck %t/musttail.ll
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi,dipc-sfi-cfi -disable-output %t/prefix.ll 2>&1 | FileCheck %t/prefix.ll
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi,dipc-sfi-cfi -disable-output %t/prologue.ll 2>&1 | FileCheck %t/prologue.ll
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi,dipc-sfi-cfi -disable-output %t/patchable.ll 2>&1 | FileCheck %t/patchable.ll
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi,dipc-sfi-cfi -disable-output %t/kcfi.ll 2>&1 | FileCheck %t/kcfi.ll
; Without dipc-sfi-cfi, musttail still compiles.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi -disable-output %t/musttail.ll

;--- musttail.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
declare i32 @g(i32)
; CHECK: error: {{.*}}dipc: -fdipc-sfi cannot protect the control flow of 'f': it has a musttail call, after which its return address could not be checked
define i32 @f(i32 %x) {
  %r = musttail call i32 @g(i32 %x)
  ret i32 %r
}

;--- prefix.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
; CHECK: error: {{.*}}dipc: -fdipc-sfi cannot protect the control flow of 'f': it already has prefix data
define void @f() prefix i32 1 {
  ret void
}

;--- prologue.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
; CHECK: error: {{.*}}dipc: -fdipc-sfi cannot protect the control flow of 'f': it already has prologue data
define void @f() prologue i8 144 {
  ret void
}

;--- patchable.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
; CHECK: error: {{.*}}dipc: -fdipc-sfi cannot protect the control flow of 'f': it has a patchable function entry
define void @f() "patchable-function-entry"="2" {
  ret void
}

;--- kcfi.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
; CHECK: error: {{.*}}dipc: -fdipc-sfi cannot protect the control flow of 'f': it is instrumented by kcfi or -fsanitize=function, whose data would sit where the call magic goes
define void @f() !kcfi_type !0 {
  ret void
}
!0 = !{i32 12345}
