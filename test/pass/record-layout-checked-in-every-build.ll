; The writer checks every record it builds against include/dipc/records.def
; (each field's offset and size, the record's size) with the module's
; DataLayout, in every build type: the suite runs the Release build, whose
; asserts are compiled out. A data layout that aligns i64 to 16 bytes pads
; the domain record's header to 16 bytes, and the compiler stops with a
; message rather than emit a record every loader would misread.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc -S %s -o /dev/null
; RUN: sed 's/^target datalayout.*/target datalayout = "e-i64:128"/' %s > %t.ll
; RUN: not opt -load-pass-plugin=%pass-plugin -passes=dipc -S %t.ll -o /dev/null 2>&1 | FileCheck %s
; CHECK: LLVM ERROR: dIPC metadata writer: record domain field header is written at [0, 16), not [0, 8) (include/dipc/records.def)
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null }], section "llvm.metadata"

define i64 @get(i64 %a) {
  ret i64 %a
}
