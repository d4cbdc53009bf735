; Code and data of a named domain go to dipc_text_<d>, dipc_rodata_<d>,
; dipc_data_<d> and (zero-initialised data, named by the "bss-section"
; attribute so it stays zero-fill) dipc_bss_<d>, each bracketed by
; page-aligned markers kept by llvm.used; the default domain stays in the
; ordinary sections.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc,verify -S %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@dom = private constant [12 x i8] c"dipc.dom:db\00", section "llvm.metadata"
@llvm.global.annotations = appending global [4 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @work, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @counter, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @table, ptr @dom, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @limit, ptr @dom, ptr null, i32 0, ptr null }], section "llvm.metadata"

; CHECK: @__dipc_begin.bss.db = internal global [1 x i8] zeroinitializer, align 4096 #[[BSS:[0-9]+]]
; CHECK: @__dipc_begin.data.db = internal global [1 x i8] zeroinitializer, section "dipc_data_db", align 4096
; CHECK: @__dipc_begin.rodata.db = internal constant [1 x i8] zeroinitializer, section "dipc_rodata_db", align 4096
; CHECK: @counter = global i64 0 #[[BSS]]
; CHECK: @table = constant ptr @counter, section "dipc_data_db"
; CHECK: @limit = constant i64 9, section "dipc_rodata_db"
; CHECK: @plain = global i64 1{{$}}
; CHECK: @__dipc_end.rodata.db = internal constant [1 x i8] zeroinitializer, section "dipc_rodata_db", align 4096
; CHECK: @__dipc_end.data.db = internal global [1 x i8] zeroinitializer, section "dipc_data_db", align 4096
; CHECK: @__dipc_end.bss.db = internal global [1 x i8] zeroinitializer, align 4096 #[[BSS]]
; CHECK: @llvm.used = {{.*}}@__dipc_begin.text.db{{.*}}@__dipc_end.text.db
@counter = global i64 0
@table = constant ptr @counter
@limit = constant i64 9
@plain = global i64 1

; CHECK: define internal void @__dipc_begin.text.db() #[[M:[0-9]+]] section "dipc_text_db" align 4096
; CHECK: define void @work() section "dipc_text_db"
; CHECK: define void @outside() {
; CHECK: define internal void @__dipc_end.text.db() #[[M]] section "dipc_text_db" align 4096
; CHECK-DAG: attributes #[[M]] = { naked noinline nounwind }
; CHECK-DAG: attributes #[[BSS]] = { "bss-section"="dipc_bss_db" }
define void @work() {
  ret void
}
define void @outside() {
  ret void
}
