; Records are constant structs with self-relative references (target minus
; the field's own address) in the sections named by metadata.h, all in
; llvm.used. The entry record points at the callee stub and the entry.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@entry = private constant [11 x i8] c"dipc.entry\00", section "llvm.metadata"
@iso = private constant [36 x i8] c"dipc.iso_callee:reg_confidentiality\00", section "llvm.metadata"
@llvm.global.annotations = appending global [3 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @entry, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @get, ptr @iso, ptr null, i32 0, ptr null }], section "llvm.metadata"

; Domain record: version 1, 88 bytes, name, flags 0, text range.
; CHECK: @__dipc_domain.db = internal constant {{.*}} { i32 1, i32 88, i64 sub (i64 ptrtoint (ptr @[[DB:__dipc_name.*]] to i64), i64 ptrtoint (ptr getelementptr inbounds ({{.*}}, ptr @__dipc_domain.db, i32 0, i32 2) to i64)), i32 0, i32 0, i64 sub (i64 ptrtoint (ptr @__start_dipc_text_db to i64)
; CHECK-SAME: section "dipc_domains", align 8
; Entry record: version 1, 56 bytes; stub and function; 2 int args, 1 int
; result; policy reg_confidentiality (2).
; CHECK: @__dipc_entry.get = internal constant {{.*}} { i32 1, i32 56, {{.*}} ptrtoint (ptr @__dipc_callee.get to i64){{.*}} ptrtoint (ptr @get to i64){{.*}} i8 2, i8 0, i8 1, i8 0, i16 0, i8 0, i8 0, i32 2, i32 0 }, section "dipc_entries", align 8
; CHECK: @llvm.used = {{.*}}ptr @__dipc_domain.db{{.*}}ptr @__dipc_entry.get
define i64 @get(i64 %a, ptr %b) {
  ret i64 %a
}
