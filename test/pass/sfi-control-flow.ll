; dipc-sfi-cfi (after dipc-sfi) protects the control flow of every function
; defined in the unit (include/dipc/sfi.h, "Control flow"): the call magic
; 0xcc1d5fc0 as prefix data; a shadow-stack push at entry (before the
; checks' first load) and, before the one return all returns now share,
; the pop when the top entry names this frame's slot and the slot still
; holds its return address, else __dipc_sfi_ret_slow(slot); all of it
; unchecked (!dipc.sfi.check). Left out where no return address can change
; (no call but the checks' slow path, stores only inside the frame) and
; where nothing returns. Each indirect call or invoke first adds the
; negated magic to the target's 4 bytes before it, in the pass's own asm,
; and calls __dipc_sfi_check_call(target) (preserve_most, as the ret slow
; path) when the sum is not zero; direct
; calls, asm and calls through the runtime vector are left alone. An
; indirectbr first compares its target with its labels and calls
; __dipc_sfi_cfi_fail(3, target) when none matches; one whose target is
; loaded from a constant table of its labels bounds the index instead. Naked stubs get the magic
; only; a zero-byte text marker gets nothing. Running twice changes nothing
; more.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi,dipc-sfi-cfi,verify -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi,dipc-sfi-cfi,verify -S %t.ll -o - | grep -v -e ModuleID -e '; preds' > %t.twice.ll
; RUN: grep -v -e ModuleID -e '; preds' %t.ll | diff - %t.twice.ll
; Without dipc-sfi-cfi (or, under clang, without -fdipc-sfi): none of it.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi -S %s | FileCheck %s --check-prefix=OFF
; OFF-NOT: prefix
; OFF-NOT: dipc.cfi
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@g = global i32 0

declare void @use(ptr)
declare void @exit(i32) noreturn
declare i32 @__gxx_personality_v0(...)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; Reads anything, writes only its own locals: nothing to protect.
; CHECK-LABEL: define i32 @leaf(
; CHECK-SAME: prefix i32 -870490176 {
; CHECK-NEXT: %a = alloca [4 x i32]
; CHECK-NEXT: %dipc.sfi.dom = load
; CHECK-NOT: dipc.cfi
; CHECK: ret i32 %v
; CHECK-NEXT: }
define i32 @leaf(ptr %p) {
  %a = alloca [4 x i32]
  %q = getelementptr [4 x i32], ptr %a, i64 0, i64 1
  store i32 1, ptr %q
  call void @llvm.memset.p0.i64(ptr %a, i8 0, i64 16, i1 false)
  %v = load i32, ptr %p
  ret i32 %v
}

; A store outside the frame (a global) might hit a return address.
; CHECK-LABEL: define void @store_global(
; CHECK-SAME: prefix i32 -870490176 {
; CHECK-NEXT: %dipc.cfi.slot = call ptr @llvm.addressofreturnaddress.p0()
; CHECK: __dipc_sfi_ret_slow
define void @store_global() {
  store i32 1, ptr @g
  ret void
}

; The push first, after the static allocas (%a, which escapes, in the
; data frame: SfiDataFrame.cpp); then the checks' row.
; CHECK-LABEL: define void @caller(
; CHECK-SAME: ptr %p) [[ATTRS:#[0-9]+]] prefix i32 -870490176 {
; CHECK-NEXT: %dipc.data = alloca [16 x i8], align 16
; CHECK-NEXT: %dipc.cfi.slot = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT: %dipc.cfi.ssp = load i64, ptr addrspace(256) inttoptr (i64 256000 to ptr addrspace(256)), align 8, !dipc.sfi.check [[MARK:![0-9]+]]
; CHECK-NEXT: %dipc.cfi.push = sub i64 %dipc.cfi.ssp, 16
; CHECK-NEXT: store i64 %dipc.cfi.push, ptr addrspace(256) inttoptr (i64 256000 to ptr addrspace(256)), align 8, !dipc.sfi.check [[MARK]]
; CHECK-NEXT: %dipc.cfi.top = inttoptr i64 %dipc.cfi.push to ptr
; CHECK-NEXT: %dipc.cfi.ra = load ptr, ptr %dipc.cfi.slot, align 8, !dipc.sfi.check [[MARK]]
; CHECK-NEXT: store ptr %dipc.cfi.ra, ptr %dipc.cfi.top, align 8, !dipc.sfi.check [[MARK]]
; CHECK-NEXT: [[S:%.*]] = getelementptr inbounds i64, ptr %dipc.cfi.top, i64 1
; CHECK-NEXT: store ptr %dipc.cfi.slot, ptr [[S]], align 8, !dipc.sfi.check [[MARK]]
; CHECK-NEXT: %dipc.sfi.dom = load
; CHECK: notail call void @use(ptr %a.data)
; CHECK-NEXT: [[SLOT1:%dipc.cfi.slot[0-9]+]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT: [[SSP2:%dipc.cfi.ssp[0-9]+]] = load i64, ptr addrspace(256) inttoptr (i64 256000 to ptr addrspace(256)), align 8, !dipc.sfi.check [[MARK]]
; CHECK-NEXT: [[TOP3:%dipc.cfi.top[0-9]+]] = inttoptr i64 [[SSP2]] to ptr
; CHECK-NEXT: [[TS:%.*]] = getelementptr inbounds i64, ptr [[TOP3]], i64 1
; CHECK-NEXT: %dipc.cfi.top.slot = load ptr, ptr [[TS]], align 8, !dipc.sfi.check [[MARK]]
; CHECK-NEXT: %dipc.cfi.top.ra = load ptr, ptr [[TOP3]], align 8, !dipc.sfi.check [[MARK]]
; CHECK-NEXT: [[RA4:%dipc.cfi.ra[0-9]+]] = load volatile ptr, ptr [[SLOT1]], align 8, !dipc.sfi.check [[MARK]]
; CHECK-NEXT: [[RAOK:%.*]] = icmp eq ptr %dipc.cfi.top.ra, [[RA4]]
; CHECK-NEXT: [[SLOTOK:%.*]] = icmp eq ptr %dipc.cfi.top.slot, [[SLOT1]]
; CHECK-NEXT: %dipc.cfi.ok = and i1 [[SLOTOK]], [[RAOK]]
; CHECK-NEXT: br i1 %dipc.cfi.ok, label %dipc.cfi.pop, label %dipc.cfi.slow, !prof [[LIKELY:![0-9]+]]
; CHECK: dipc.cfi.pop:
; CHECK-NEXT: [[UP:%.*]] = add i64 [[SSP2]], 16
; CHECK-NEXT: store i64 [[UP]], ptr addrspace(256) inttoptr (i64 256000 to ptr addrspace(256)), align 8, !dipc.sfi.check [[MARK]]
; CHECK-NEXT: br label %[[RET:.*]]
; CHECK: dipc.cfi.slow:
; CHECK-NEXT: notail call preserve_mostcc void @__dipc_sfi_ret_slow(ptr [[SLOT1]]) [[COLD:#[0-9]+]]
; CHECK-NEXT: br label %[[RET]]
; CHECK: [[RET]]:
; CHECK-NEXT: ret void
define void @caller(ptr %p) {
  %a = alloca i32
  %v = load i32, ptr %p
  store i32 %v, ptr %a
  call void @use(ptr %a)
  ret void
}

; One epilogue for all returns.
; CHECK-LABEL: define i32 @tworets(
; CHECK: br label %dipc.cfi.ret
; CHECK: br label %dipc.cfi.ret
; CHECK: dipc.cfi.ret:
; CHECK-NEXT: %dipc.cfi.retval = phi i32 [ 1, %a ], [ 2, %b ]
; CHECK: call preserve_mostcc void @__dipc_sfi_ret_slow(
; CHECK-NOT: call preserve_mostcc void @__dipc_sfi_ret_slow(
; CHECK: ret i32 %dipc.cfi.retval
; CHECK-NOT: ret
; CHECK: }
define i32 @tworets(i1 %c) {
  br i1 %c, label %a, label %b
a:
  call void @use(ptr null)
  ret i32 1
b:
  ret i32 2
}

; Never returns: no shadow stack.
; CHECK-LABEL: define void @no_return(
; CHECK-NOT: dipc.cfi
; CHECK: }
define void @no_return() {
  call void @exit(i32 1)
  unreachable
}

; CHECK-LABEL: define void @indirect(
; CHECK: %dipc.cfi.magic = call { i8, i32 } asm sideeffect "movl $$0x33e2a040, $1\0A\09addl -4($2), $1", "={@ccnz},=&r,r,~{dirflag},~{fpsr},~{flags}"(ptr %f) [[OWN:#[0-9]+]]
; CHECK-NEXT: [[Z:%.*]] = extractvalue { i8, i32 } %dipc.cfi.magic, 0
; CHECK-NEXT: %dipc.cfi.bad = icmp ne i8 [[Z]], 0
; CHECK-NEXT: br i1 %dipc.cfi.bad, label %dipc.cfi.call.slow, label %[[GO:.*]], !prof [[UNLIKELY:![0-9]+]]
; CHECK: dipc.cfi.call.slow:
; CHECK-NEXT: notail call preserve_mostcc void @__dipc_sfi_check_call(ptr %f) [[COLD]]
; A target without the magic is a library's: the first byte of each
; pointer argument must be readable (null: the runtime vector's page).
; CHECK-NEXT: [[I:%.*]] = ptrtoint ptr %p to i64
; CHECK-NEXT: [[N:%.*]] = icmp eq ptr %p, null
; CHECK-NEXT: %dipc.cfi.arg = select i1 [[N]], i64 2146439168, i64 [[I]]
; CHECK-NEXT: notail call void @__dipc_sfi_check(i64 %dipc.cfi.arg, i64 1, i32 0) [[COLD]]
; CHECK-NEXT: br label %[[GO]]
; CHECK: [[GO]]:
; CHECK-NEXT: notail call void %f(ptr %p)
; A function the unit does not define: its pointer argument's tag must
; not be a callee stack's (SfiChecks.cpp, addCallArguments).
; CHECK: %dipc.sfi.argtag = load i16
; CHECK-NEXT: %dipc.sfi.onstack = icmp eq i16 %dipc.sfi.argtag, 1026
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.arg, i64 1, i32 3)
; CHECK: notail call void @use(ptr %p)
; CHECK-NEXT: %dipc.cfi.slot1 =
define void @indirect(ptr %f, ptr %p) {
  call void %f(ptr %p)
  call void @use(ptr %p)
  ret void
}

; CHECK-LABEL: define void @indirect_invoke(
; CHECK: %dipc.cfi.magic = call { i8, i32 } asm sideeffect "movl $$0x33e2a040{{.*}}"(ptr %f) [[OWN]]
; CHECK: call preserve_mostcc void @__dipc_sfi_check_call(ptr %f)
; CHECK: invoke void %f(ptr null)
; CHECK-NEXT: to label %ok unwind label %lp
define void @indirect_invoke(ptr %f) personality ptr @__gxx_personality_v0 {
  invoke void %f(ptr null) to label %ok unwind label %lp
ok:
  ret void
lp:
  %l = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %l
}

; __dipc_setjmp_arm through the runtime vector (the caller stubs'): the
; runtime's pointer, not checked.
; CHECK-LABEL: define void @vector_call(
; CHECK-NOT: __dipc_sfi_check_call
; CHECK: notail call void %arm(ptr null)
define void @vector_call() {
  %arm = load ptr, ptr inttoptr (i64 2146439168 to ptr), align 8, !invariant.load !{}
  call void %arm(ptr null)
  ret void
}

; CHECK-LABEL: define i32 @goto(
; CHECK-NEXT: entry:
; CHECK-NEXT: [[IS0:%.*]] = icmp eq ptr %t, blockaddress(@goto, %x)
; CHECK-NEXT: br i1 [[IS0]], label %dipc.cfi.branch.ok, label %dipc.cfi.branch
; CHECK: dipc.cfi.branch:
; CHECK-NEXT: [[IS1:%.*]] = icmp eq ptr %t, blockaddress(@goto, %y)
; CHECK-NEXT: br i1 [[IS1]], label %dipc.cfi.branch.ok, label %dipc.cfi.branch.fail
; CHECK: dipc.cfi.branch.ok:
; CHECK-NEXT: indirectbr ptr %t, [label %x, label %y, label %x]
; CHECK: x:
; CHECK-NEXT: %px = phi i32 [ 1, %dipc.cfi.branch.ok ], [ 1, %dipc.cfi.branch.ok ]
; CHECK: y:
; CHECK-NEXT: %py = phi i32 [ 2, %dipc.cfi.branch.ok ]
; CHECK: dipc.cfi.branch.fail:
; CHECK-NEXT: notail call void @__dipc_sfi_cfi_fail(i32 3, ptr %t) [[NORETURN:#[0-9]+]]
; CHECK-NEXT: unreachable
; CHECK-NEXT: }
define i32 @goto(ptr %t) {
entry:
  indirectbr ptr %t, [label %x, label %y, label %x]
x:
  %px = phi i32 [ 1, %entry ], [ 1, %entry ]
  ret i32 %px
y:
  %py = phi i32 [ 2, %entry ]
  ret i32 %py
}

; An interpreter's dispatch, loaded from a constant table of the
; indirectbr's labels: the index is bounded instead (before the load), and
; the labels are not compared.
; CHECK-LABEL: define i32 @table_goto(
; CHECK: %e = getelementptr inbounds [2 x ptr], ptr @table, i64 0, i64 %i
; CHECK: %dipc.cfi.branch.out = icmp uge i64 %i, 2
; CHECK-NEXT: br i1 %dipc.cfi.branch.out, label %dipc.cfi.branch.fail, label %[[LOAD:.*]], !prof [[UNLIKELY]]
; CHECK: dipc.cfi.branch.fail:
; CHECK-NEXT: notail call void @__dipc_sfi_cfi_fail(i32 3, ptr %e) [[NORETURN]]
; CHECK-NEXT: unreachable
; CHECK: [[LOAD]]:
; CHECK-NEXT: %t = load ptr, ptr %e
; CHECK-NEXT: indirectbr ptr %t, [label %x, label %y]
; CHECK-NOT: blockaddress
; CHECK: }
@table = internal constant [2 x ptr] [ptr blockaddress(@table_goto, %x), ptr blockaddress(@table_goto, %y)]
define i32 @table_goto(i64 %i) {
entry:
  %e = getelementptr inbounds [2 x ptr], ptr @table, i64 0, i64 %i
  %t = load ptr, ptr %e
  indirectbr ptr %t, [label %x, label %y]
x:
  ret i32 1
y:
  ret i32 2
}

; A table that is not constant, or that holds another label: compares.
; CHECK-LABEL: define i32 @writable_table_goto(
; CHECK: icmp eq ptr %t, blockaddress(@writable_table_goto, %x)
; CHECK: indirectbr ptr %t, [label %x]
@wtable = internal global [1 x ptr] [ptr blockaddress(@writable_table_goto, %x)]
define i32 @writable_table_goto(i64 %i) {
entry:
  %e = getelementptr inbounds [1 x ptr], ptr @wtable, i64 0, i64 %i
  %t = load ptr, ptr %e
  indirectbr ptr %t, [label %x]
x:
  ret i32 1
}

; An indirectbr with no labels always fails.
; CHECK-LABEL: define void @goto_nowhere(
; CHECK-NEXT: br label %dipc.cfi.branch.fail
; CHECK: call void @__dipc_sfi_cfi_fail(i32 3, ptr %t)
define void @goto_nowhere(ptr %t) {
  indirectbr ptr %t, []
}

; CHECK-LABEL: define void @stub(
; CHECK-SAME: [[STUB:#[0-9]+]] prefix i32 -870490176 {
; CHECK-NEXT: call void asm sideeffect "jmpq *0x7ff01008", ""() [[OWN]]
; CHECK-NEXT: unreachable
define void @stub() naked {
  call void asm sideeffect "jmpq *0x7ff01008", ""() "dipc-asm"
  unreachable
}

; CHECK-LABEL: define internal void @__dipc_text_end.d(
; CHECK-SAME: [[MARKER:#[0-9]+]] {
define internal void @__dipc_text_end.d() naked {
  unreachable
}

; CHECK: declare preserve_mostcc void @__dipc_sfi_ret_slow(ptr) [[NOUNWIND:#[0-9]+]]
; CHECK: declare preserve_mostcc void @__dipc_sfi_check_call(ptr) [[NOUNWIND]]
; CHECK: declare void @__dipc_sfi_cfi_fail(i32, ptr) [[FAILATTRS:#[0-9]+]]
; CHECK-DAG: attributes [[ATTRS]] = { "dipc-sfi" "dipc-sfi-cfi" "disable-tail-calls"="true" "probe-stack"="inline-asm" }
; CHECK-DAG: attributes [[NOUNWIND]] = { nounwind }
; CHECK-DAG: attributes [[FAILATTRS]] = { cold noreturn nounwind }
; CHECK-DAG: attributes [[COLD]] = { cold }
; CHECK-DAG: attributes [[OWN]] = { "dipc-asm" }
; CHECK-DAG: attributes [[NORETURN]] = { noreturn }
; CHECK-DAG: attributes [[STUB]] = { naked "dipc-sfi-cfi" }
; CHECK-DAG: attributes [[MARKER]] = { naked }
; CHECK-DAG: [[MARK]] = !{}
; CHECK-DAG: [[LIKELY]] = !{!"branch_weights", i32 1048575, i32 1}
; CHECK-DAG: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}
