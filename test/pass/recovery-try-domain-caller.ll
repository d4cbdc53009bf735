; try-style recovery unwinds with libgcc, which needs the default domain's
; memory (ld.so's object list, .eh_frame_hdr, its own state). A caller
; domain without write access to the default domain gets setjmp-style stubs
; under -dipc-recovery=try (same observable result); one with
; __perm("default", write) keeps try style, as does the default domain.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -dipc-recovery=try -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@db = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@mid = private constant [13 x i8] c"dipc.dom:mid\00", section "llvm.metadata"
@wide = private constant [14 x i8] c"dipc.dom:wide\00", section "llvm.metadata"
@perm = private constant [24 x i8] c"dipc.perm:default:write\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [5 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @db, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @in_mid, ptr @mid, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @in_wide, ptr @wide, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @in_wide, ptr @perm, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare i32 @get()

; CHECK-LABEL: define i32 @in_default()
; CHECK-NOT: setjmp
; CHECK: invoke i64 asm sideeffect alignstack unwind "# dipc caller stub: get
; CHECK-LABEL: define i32 @in_mid()
; CHECK-NOT: personality
; CHECK: call i32 @llvm.eh.sjlj.setjmp
; CHECK: call i64 asm sideeffect alignstack "# dipc caller stub: get
; CHECK-NOT: invoke
; CHECK-LABEL: define i32 @in_wide()
; CHECK-SAME: personality ptr @__gcc_personality_v0
; CHECK-NOT: setjmp
; CHECK: invoke i64 asm sideeffect alignstack unwind "# dipc caller stub: get
define i32 @in_default() {
  %r = call i32 @get()
  ret i32 %r
}
define i32 @in_mid() {
  %r = call i32 @get()
  ret i32 %r
}
define i32 @in_wide() {
  %r = call i32 @get()
  ret i32 %r
}
