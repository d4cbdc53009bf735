; Narrow integer arguments are widened to 64 bits the way the entry's
; parameter attributes say (signext/zeroext); results are truncated back.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare zeroext i1 @get(i8 signext, i16 zeroext, i32)

; CHECK-LABEL: define i1 @caller(
; CHECK: %[[A:.*]] = sext i8 %a to i64
; CHECK: %[[B:.*]] = zext i16 %b to i64
; CHECK: %[[C:.*]] = zext i32 %c to i64
; CHECK: asm sideeffect alignstack {{.*}}(i64 %[[A]], i64 %[[B]], i64 %[[C]], ptr
; CHECK: trunc i64 %{{.*}} to i1
define i1 @caller(i8 %a, i16 %b, i32 %c) {
  %r = call zeroext i1 @get(i8 signext %a, i16 zeroext %b, i32 %c)
  ret i1 %r
}
