; Every address of an entry, taken in any domain (its own included, and for
; a declared-only foreign entry), is its anycall stub: shared code, one per
; linked object (a comdat), which jumps to the runtime vector's anycall
; routine with its own address in r11 (docs/abi.md §4); the record names
; the stub. Direct calls are unchanged: in the entry's domain a plain call,
; from another domain a caller stub.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@domapp = private constant [13 x i8] c"dipc.dom:app\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@llvm.global.annotations = appending global [6 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @cb, ptr @domapp, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @cb, ptr @entry, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @own, ptr @domapp, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @own, ptr @entry, ptr null, i32 0, ptr null }], section "llvm.metadata"

; CHECK: $__dipc_anycall.get = comdat any
; CHECK: $__dipc_anycall.cb = comdat any
; CHECK: @__dipc_anycall_record.get = internal constant {{.*}}(ptr @__dipc_anycall.get to i64){{.*}}section "dipc_anycalls", comdat($__dipc_anycall.get)
; CHECK: @__dipc_anycall_record.cb = internal constant {{.*}}(ptr @__dipc_anycall.cb to i64){{.*}}section "dipc_anycalls", comdat($__dipc_anycall.cb)

declare i64 @get(i64)
declare void @register_callback(ptr)

; CHECK-LABEL: define void @caller(
; CHECK-NEXT: call void @register_callback(ptr @__dipc_anycall.get)
; CHECK-NEXT: call void @register_callback(ptr @__dipc_anycall.cb)
define void @caller() {
  call void @register_callback(ptr @get)
  call void @register_callback(ptr @cb)
  ret void
}

define i64 @cb(i64 %x) {
  ret i64 %x
}

; In cb's own domain: the address is the stub too, a direct call stays.
; CHECK-LABEL: define i64 @own(
; CHECK-NEXT: call void @register_callback(ptr @__dipc_anycall.cb)
; CHECK-NEXT: %r = call i64 @cb(i64 1)
define i64 @own() {
  call void @register_callback(ptr @cb)
  %r = call i64 @cb(i64 1)
  ret i64 %r
}

; CHECK-LABEL: define linkonce_odr hidden i64 @__dipc_anycall.get(i64 %0)
; CHECK-SAME: #[[STUB:[0-9]+]] comdat align 16 prefix { i64, i64 } { i64 7741240723203180900, i64 add (i64 sub (i64 ptrtoint (ptr @__dipc_anycall_record.get to i64), i64 ptrtoint (ptr @__dipc_anycall.get to i64)), i64 8) } {
; CHECK-NEXT: call void asm sideeffect "leaq ${0:c}(%rip), %r11\0A\09jmpq *0x7ff01038", "i,~{r11}"(ptr @__dipc_anycall.get)
; CHECK-NEXT: unreachable
; CHECK: attributes #[[STUB]] = { naked noinline nounwind }
