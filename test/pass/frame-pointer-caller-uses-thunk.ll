; A function that needs a frame pointer (here a variable-sized alloca) pins
; rbp, which an inline stub could not protect: its cross-domain call goes
; through the noinline thunk instead, and it keeps its frame pointer.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%pass-plugin -passes='default<O2>' -S %s | FileCheck %s --check-prefix=O2
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare i64 @get(i64)
declare void @fill(ptr, i64)

; CHECK-LABEL: define i64 @vla(
; CHECK-SAME: #[[VLA:[0-9]+]]
; CHECK: %r = call i64 @__dipc_thunk.default.00.get(i64 %n)
; CHECK-NEXT: ret i64 %r
; CHECK: attributes #[[VLA]] = { "frame-pointer"="all" }
; O2-LABEL: define i64 @vla(
; O2: call {{.*}}i64 @__dipc_thunk.default.00.get(
; O2-LABEL: define internal {{.*}}i64 @__dipc_thunk.default.00.get(
; O2: asm sideeffect alignstack "# dipc caller stub: get
define i64 @vla(i64 %n) "frame-pointer"="all" {
  %buf = alloca i8, i64 %n
  call void @fill(ptr %buf, i64 %n)
  %r = call i64 @get(i64 %n)
  ret i64 %r
}
