; dipc-sfi puts the check of include/dipc/sfi.h before every access: the
; running domain's row (%gs:40 -> 0x78000000 + dom * 2048) once in the entry
; block, the page's tag (0x180000000000 + (addr >> 12) * 2), the right (1
; read, 2 write; atomics write), a page-crossing test unless the alignment
; rules it out (addr & (size - 1) for an access the IR says is naturally
; aligned, else (addr & 4095) > 4096 - size), and the cold slow path
; __dipc_sfi_check(addr, size, write). A run-time length takes the fast
; path when it stays in one page; sizes of a page or more and masked vector
; accesses go to the slow path directly. Accesses inside the function's own static allocas are not checked; globals are.
; Accesses at constant offsets from one base in one block share a check;
; a dominating check covers later accesses to its bytes until a call; a
; loop-invariant access that runs whenever its loop runs is checked in the
; preheader (guarded checks: sfi-guarded.ll). Running the pass twice changes nothing more.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi,verify -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi,verify -S %t.ll -o - | grep -v -e ModuleID -e '; preds' > %t.twice.ll
; RUN: grep -v -e ModuleID -e '; preds' %t.ll | diff - %t.twice.ll
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi,verify -dipc-sfi-preserve-most -S %s | FileCheck %s --check-prefix=PM
; PM-LABEL: define i32 @load(
; PM: call preserve_mostcc void @__dipc_sfi_check_preserve_most(i64 %dipc.sfi.addr, i64 4, i32 0)
; PM: define internal preserve_mostcc void @__dipc_sfi_check_preserve_most(i64 %0, i64 %1, i32 %2) [[WRAPPER:#[0-9]+]] {
; PM-NEXT: call void asm sideeffect "pushq %rax{{.*}}pushq %r10\0A\09subq $$8, %rsp\0A\09callq __dipc_sfi_check@PLT\0A\09addq $$8, %rsp\0A\09popq %r10{{.*}}popq %rax\0A\09retq", ""() [[OWN:#[0-9]+]]
; PM-NEXT: unreachable
; PM: attributes [[WRAPPER]] = { naked noinline "dipc-sfi-own-function" }
; PM: attributes [[OWN]] = { "dipc-asm" }
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@g = global [4 x i32] zeroinitializer, align 16
%struct.big = type { [6 x i64] }

declare void @use(ptr)
declare void @take(ptr byval(%struct.big) align 8)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memset.inline.p0.i64(ptr, i8, i64, i1)
declare i32 @llvm.eh.sjlj.setjmp(ptr)
declare <4 x i32> @llvm.masked.load.v4i32.p0(ptr, i32, <4 x i1>, <4 x i32>)
declare void @llvm.masked.store.v4i32.p0(<4 x i32>, ptr, i32, <4 x i1>)
declare <2 x i64> @llvm.masked.gather.v2i64.v2p0(<2 x ptr>, i32, <2 x i1>, <2 x i64>)
declare void @llvm.masked.scatter.v2i64.v2p0(<2 x i64>, <2 x ptr>, i32, <2 x i1>)
declare <4 x i32> @llvm.masked.expandload.v4i32(ptr, <4 x i1>, <4 x i32>)
declare void @llvm.masked.compressstore.v4i32(<4 x i32>, ptr, <4 x i1>)
declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_end.p0(ptr)

; CHECK-LABEL: define i32 @load(
; CHECK-SAME: ptr %p) [[ATTRS:#[0-9]+]] {
; CHECK-NEXT: %dipc.sfi.dom = load i32, ptr addrspace(256) inttoptr (i64 40 to ptr addrspace(256)), align 4, !dipc.sfi.check [[MARK:![0-9]+]]
; CHECK-NEXT: [[DOM:%.*]] = zext i32 %dipc.sfi.dom to i64
; CHECK-NEXT: [[OFF:%.*]] = mul nuw nsw i64 [[DOM]], 2048
; CHECK-NEXT: %dipc.sfi.row = getelementptr i8, ptr inttoptr (i64 2013265920 to ptr), i64 [[OFF]]
; CHECK-NEXT: %dipc.sfi.addr = ptrtoint ptr %p to i64
; CHECK-NEXT: [[PAGE:%.*]] = lshr i64 %dipc.sfi.addr, 12
; CHECK-NEXT: [[SH:%.*]] = getelementptr i16, ptr inttoptr (i64 26388279066624 to ptr), i64 [[PAGE]]
; CHECK-NEXT: %dipc.sfi.tag = load i16, ptr [[SH]], align 2, !dipc.sfi.check [[MARK]]
; CHECK-NEXT: [[TAG:%.*]] = zext i16 %dipc.sfi.tag to i64
; CHECK-NEXT: [[R:%.*]] = getelementptr i8, ptr %dipc.sfi.row, i64 [[TAG]]
; CHECK-NEXT: %dipc.sfi.rights = load i8, ptr [[R]], align 1, !dipc.sfi.check [[MARK]]
; CHECK-NEXT: [[BIT:%.*]] = and i8 %dipc.sfi.rights, 1
; CHECK-NEXT: %dipc.sfi.denied = icmp eq i8 [[BIT]], 0
; CHECK-NEXT: br i1 %dipc.sfi.denied, label %dipc.sfi.slow, label %dipc.sfi.page, !prof [[UNLIKELY:![0-9]+]]
; CHECK: dipc.sfi.page:
; CHECK-NEXT: [[LOW:%.*]] = and i64 %dipc.sfi.addr, 3
; CHECK-NEXT: %dipc.sfi.cross = icmp ne i64 [[LOW]], 0
; CHECK-NEXT: br i1 %dipc.sfi.cross, label %dipc.sfi.slow, label %[[OK:.*]], !prof [[UNLIKELY]]
; CHECK: dipc.sfi.slow:
; CHECK-NEXT: notail call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 4, i32 0) [[COLD:#[0-9]+]]
; CHECK-NEXT: br label %[[OK]]
; CHECK: [[OK]]:
; CHECK-NEXT: %v = load i32, ptr %p
define i32 @load(ptr %p) {
  %v = load i32, ptr %p
  ret i32 %v
}

; Not naturally aligned (a packed field): the page offset is compared.
; CHECK-LABEL: define i32 @unaligned(
; CHECK: dipc.sfi.page:
; CHECK-NEXT: [[IN:%.*]] = and i64 %dipc.sfi.addr, 4095
; CHECK-NEXT: %dipc.sfi.cross = icmp ugt i64 [[IN]], 4092
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 4, i32 0)
define i32 @unaligned(ptr %p) {
  %v = load i32, ptr %p, align 1
  ret i32 %v
}

; CHECK-LABEL: define void @store(
; CHECK: and i8 %dipc.sfi.rights, 2
; CHECK: and i64 %dipc.sfi.addr, 7
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 8, i32 1)
; CHECK: store i64 %v, ptr %p
define void @store(ptr %p, i64 %v) {
  store i64 %v, ptr %p
  ret void
}

; CHECK-LABEL: define i32 @rmw(
; CHECK: and i8 %dipc.sfi.rights, 2
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 4, i32 1)
; CHECK: atomicrmw add ptr %p
define i32 @rmw(ptr %p) {
  %old = atomicrmw add ptr %p, i32 1 seq_cst
  ret i32 %old
}

; CHECK-LABEL: define i16 @cmpxchg(
; CHECK: and i8 %dipc.sfi.rights, 2
; CHECK: and i64 %dipc.sfi.addr, 1
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 2, i32 1)
; CHECK: cmpxchg ptr %p
define i16 @cmpxchg(ptr %p) {
  %r = cmpxchg ptr %p, i16 0, i16 1 seq_cst seq_cst
  %v = extractvalue { i16, i1 } %r, 0
  ret i16 %v
}

; CHECK-LABEL: define <8 x i32> @vector(
; CHECK: and i8 %dipc.sfi.rights, 1
; CHECK: and i64 %dipc.sfi.addr, 31
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 32, i32 0)
; CHECK: load <8 x i32>, ptr %p
define <8 x i32> @vector(ptr %p) {
  %v = load <8 x i32>, ptr %p
  ret <8 x i32> %v
}

; A constant length is an access of that size; length 0 accesses nothing.
; CHECK-LABEL: define void @mem_const(
; CHECK: %dipc.sfi.addr = ptrtoint ptr %d to i64
; CHECK: and i8 %dipc.sfi.rights, 2
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 24, i32 1)
; CHECK: %dipc.sfi.addr1 = ptrtoint ptr %s to i64
; CHECK: and i8 %dipc.sfi.rights3, 1
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr1, i64 24, i32 0)
; CHECK-NOT: __dipc_sfi_check
; CHECK: call void @llvm.memcpy
; CHECK-NEXT: call void @llvm.memset.inline
; CHECK-NEXT: ret void
define void @mem_const(ptr %d, ptr %s) {
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 24, i1 false)
  call void @llvm.memset.inline.p0.i64(ptr %d, i8 0, i64 0, i1 false)
  ret void
}

; A run-time length: the fast path when the range stays in the page of
; its first byte (compared as len > 4096 - (addr & 4095): no length wraps
; it), else the cold slow path with the length.
; CHECK-LABEL: define void @mem_runtime(
; CHECK: [[D:%.*]] = ptrtoint ptr %d to i64
; CHECK: and i8 %dipc.sfi.rights, 2
; CHECK: [[IN:%.*]] = and i64 [[D]], 4095
; CHECK-NEXT: [[LEFT:%.*]] = sub i64 4096, [[IN]]
; CHECK-NEXT: %dipc.sfi.cross = icmp ugt i64 %n, [[LEFT]]
; CHECK: call void @__dipc_sfi_check(i64 [[D]], i64 %n, i32 1) [[COLD]]
; CHECK: [[S:%.*]] = ptrtoint ptr %s to i64
; CHECK: and i8 %dipc.sfi.rights{{[0-9]+}}, 1
; CHECK: icmp ugt i64 %n,
; CHECK: call void @__dipc_sfi_check(i64 [[S]], i64 %n, i32 0) [[COLD]]
; CHECK-NOT: __dipc_sfi_check
; CHECK: call void @llvm.memmove
; CHECK: and i8 %dipc.sfi.rights{{[0-9]+}}, 2
; CHECK: icmp ugt i64 %n,
; CHECK: call void @__dipc_sfi_check(i64 {{%.*}}, i64 %n, i32 1) [[COLD]]
; CHECK-NOT: __dipc_sfi_check
; CHECK: call void @llvm.memset
define void @mem_runtime(ptr %d, ptr %s, i64 %n) {
  call void @llvm.memmove.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
  call void @llvm.memset.p0.i64(ptr %d, i8 0, i64 %n, i1 false)
  ret void
}

; CHECK-LABEL: define void @mem_large(
; CHECK-NEXT: %dipc.sfi.addr = ptrtoint ptr %d to i64
; CHECK-NEXT: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 8192, i32 1) [[NOTCOLD:#[0-9]+]]
; CHECK-NEXT: call void @llvm.memset
define void @mem_large(ptr %d) {
  call void @llvm.memset.p0.i64(ptr %d, i8 0, i64 8192, i1 false)
  ret void
}

; Contiguous masked accesses: from the first to the last active lane.
; CHECK-LABEL: define <4 x i32> @masked(
; CHECK: [[BITS:%.*]] = bitcast <4 x i1> %m to i4
; CHECK: [[FIRST:%.*]] = notail call i4 @llvm.cttz.i4(i4 [[BITS]], i1 false)
; CHECK: call i4 @llvm.ctlz.i4(i4 [[BITS]], i1 false)
; CHECK: [[NONE:%.*]] = icmp eq i4 [[BITS]], 0
; CHECK: [[LEN:%.*]] = select i1 [[NONE]], i64 0, i64
; CHECK: call void @__dipc_sfi_check(i64 {{%.*}}, i64 [[LEN]], i32 0)
; CHECK-NEXT: %l = notail call <4 x i32> @llvm.masked.load
; CHECK: call void @__dipc_sfi_check(i64 {{%.*}}, i64 {{%.*}}, i32 1)
; CHECK-NEXT: call void @llvm.masked.store
; CHECK: call i4 @llvm.ctpop.i4
; CHECK: call void @__dipc_sfi_check(i64 {{%.*}}, i64 {{%.*}}, i32 0)
; CHECK-NEXT: %e = notail call <4 x i32> @llvm.masked.expandload
; CHECK: call i4 @llvm.ctpop.i4
; CHECK: call void @__dipc_sfi_check(i64 {{%.*}}, i64 {{%.*}}, i32 1)
; CHECK-NEXT: call void @llvm.masked.compressstore
define <4 x i32> @masked(ptr %p, <4 x i1> %m, <4 x i32> %v) {
  %l = call <4 x i32> @llvm.masked.load.v4i32.p0(ptr %p, i32 4, <4 x i1> %m, <4 x i32> %v)
  call void @llvm.masked.store.v4i32.p0(<4 x i32> %l, ptr %p, i32 4, <4 x i1> %m)
  %e = call <4 x i32> @llvm.masked.expandload.v4i32(ptr %p, <4 x i1> %m, <4 x i32> %v)
  call void @llvm.masked.compressstore.v4i32(<4 x i32> %e, ptr %p, <4 x i1> %m)
  ret <4 x i32> %e
}

; Gathers and scatters: each lane, length 0 when it is off.
; CHECK-LABEL: define <2 x i64> @gather(
; CHECK-COUNT-2: call void @__dipc_sfi_check(i64 {{%.*}}, i64 {{%.*}}, i32 0)
; CHECK-NEXT: %g = notail call <2 x i64> @llvm.masked.gather
; CHECK-COUNT-2: call void @__dipc_sfi_check(i64 {{%.*}}, i64 {{%.*}}, i32 1)
; CHECK-NEXT: call void @llvm.masked.scatter
define <2 x i64> @gather(<2 x ptr> %ps, <2 x i1> %m, <2 x i64> %v) {
  %g = call <2 x i64> @llvm.masked.gather.v2i64.v2p0(<2 x ptr> %ps, i32 8, <2 x i1> %m, <2 x i64> %v)
  call void @llvm.masked.scatter.v2i64.v2p0(<2 x i64> %g, <2 x ptr> %ps, i32 8, <2 x i1> %m)
  ret <2 x i64> %g
}

; In-bounds constant offsets of a static alloca: none, and it stays in the
; frame. One also accessed past its end, or at a variable offset, moves to
; the data mirror of a reservation (SfiDataFrame.cpp): no checked write
; lands on a callee stack, and every access of it is checked (the frame's
; alignment, which the mirror keeps, rules out a crossing for the first).
; CHECK-LABEL: define i32 @frame(
; CHECK: %a = alloca [4 x i32], align 16
; CHECK-NEXT: %dipc.data = alloca [16 x i8], align 16
; CHECK-NOT: alloca
; CHECK: %dipc.data.asm = call { i64, i64 } asm sideeffect "# dipc data frame: the mirror's offset{{.*}}cmpl $$1026{{.*}}movabsq $$0x200000000000, $1{{.*}}cmoveq $1, $0"
; CHECK: %dipc.data.frame = call align 16 ptr asm "subq $2, $0", "=r,0,r{{.*}}"(ptr %dipc.data, i64 %dipc.data.delta)
; CHECK: %b.data = getelementptr inbounds i8, ptr %dipc.data.frame, i64 0
; CHECK: store volatile i32 1, ptr %p1
; CHECK-NEXT: %v = load volatile i32, ptr %a
; CHECK: [[B16:%.*]] = add i64 %dipc.sfi.addr, 16
; CHECK-NOT: dipc.sfi.cross
; CHECK: call void @__dipc_sfi_check(i64 [[B16]], i64 4, i32 1)
; CHECK: store volatile i32 2, ptr %out
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr1, i64 4, i32 1)
; CHECK: store volatile i32 3, ptr %var
define i32 @frame(i64 %i) {
  %a = alloca [4 x i32], align 16
  %b = alloca [4 x i32], align 16
  %p1 = getelementptr inbounds [4 x i32], ptr %a, i64 0, i64 1
  store volatile i32 1, ptr %p1
  %v = load volatile i32, ptr %a
  %out = getelementptr [4 x i32], ptr %b, i64 0, i64 4
  store volatile i32 2, ptr %out
  %var = getelementptr [4 x i32], ptr %b, i64 0, i64 %i
  store volatile i32 3, ptr %var
  ret i32 %v
}

; A global is checked: code of any domain runs with the running domain's
; rights. Its alignment rules out a crossing.
; CHECK-LABEL: define i32 @global(
; CHECK: lshr i64 add (i64 ptrtoint (ptr @g to i64), i64 8), 12
; CHECK-NOT: dipc.sfi.cross
; CHECK: call void @__dipc_sfi_check(i64 add (i64 ptrtoint (ptr @g to i64), i64 8), i64 4, i32 0)
; CHECK: %v = load i32
define i32 @global() {
  %v = load i32, ptr getelementptr inbounds ([4 x i32], ptr @g, i64 0, i64 2)
  ret i32 %v
}

; Three accesses at p, p+8, p+16 in one block: one check of 24 bytes, with
; the write right (the store).
; CHECK-LABEL: define i64 @merged(
; CHECK: and i8 %dipc.sfi.rights, 2
; CHECK: icmp ugt i64 {{%.*}}, 4072
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 24, i32 1)
; CHECK-NOT: __dipc_sfi_check
; CHECK: ret i64
define i64 @merged(ptr %p) {
  %a = load i64, ptr %p
  %q = getelementptr i8, ptr %p, i64 8
  %b = load i64, ptr %q
  %r = getelementptr i8, ptr %p, i64 16
  store i64 %a, ptr %r
  %s = add i64 %a, %b
  ret i64 %s
}

; Not across a call that may not return, nor beyond 4096 bytes.
; CHECK-LABEL: define i64 @not_merged(
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 8, i32 0)
; CHECK: %a = load i64
; CHECK-NEXT: call void @use(ptr null)
; CHECK: call void @__dipc_sfi_check(i64 {{%.*}}, i64 8, i32 0)
; CHECK: %b = load i64
; CHECK: add i64 %dipc.sfi.addr{{[0-9]+}}, 8192
; CHECK: call void @__dipc_sfi_check(i64 {{%.*}}, i64 8, i32 0)
; CHECK: %c = load i64
define i64 @not_merged(ptr %p) {
  %a = load i64, ptr %p
  call void @use(ptr null)
  %q = getelementptr i8, ptr %p, i64 8
  %b = load i64, ptr %q
  %far = getelementptr i8, ptr %p, i64 8192
  %c = load i64, ptr %far
  %s = add i64 %a, %b
  %t = add i64 %s, %c
  ret i64 %t
}

; A dominating check that covers the bytes and the right, with no call on
; any path since, covers a later access in another block; a call on one
; path between them does not (it may unmap the page).
; CHECK-LABEL: define i64 @dominated(
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 8, i32 1)
; CHECK: store i64 1, ptr %p
; CHECK-NOT: __dipc_sfi_check
; CHECK: %v = load i64, ptr %p
; CHECK-LABEL: define i64 @dominated_call(
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 8, i32 1)
; CHECK: store i64 1, ptr %p
; CHECK: call void @use(ptr null)
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr{{[0-9]+}}, i64 8, i32 0)
; CHECK: %v = load i64, ptr %p
define i64 @dominated(ptr %p, i1 %c) {
entry:
  store i64 1, ptr %p
  br i1 %c, label %then, label %join
then:
  br label %join
join:
  %v = load i64, ptr %p
  ret i64 %v
}

define i64 @dominated_call(ptr %p, i1 %c) {
entry:
  store i64 1, ptr %p
  br i1 %c, label %then, label %join
then:
  call void @use(ptr null)
  br label %join
join:
  %v = load i64, ptr %p
  ret i64 %v
}

; CHECK-LABEL: define i32 @hoisted(
; CHECK: entry:
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 4, i32 0)
; CHECK: loop:
; CHECK-NOT: dipc.sfi
; CHECK: exit:
define i32 @hoisted(ptr %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  %v = load volatile i32, ptr %p
  %acc.next = add i32 %acc, %v
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %acc.next
}

; The access does not run on every iteration: checked where it is.
; CHECK-LABEL: define i32 @not_hoisted(
; CHECK: loop:
; CHECK-NEXT: %i = phi
; CHECK-NEXT: br i1 %c
; CHECK: then:
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 4, i32 0)
; CHECK: %v = load volatile i32, ptr %p
define i32 @not_hoisted(ptr %p, i32 %n, i1 %c) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  br i1 %c, label %then, label %latch
then:
  %v = load volatile i32, ptr %p
  br label %latch
latch:
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i32 0
}

; The call copies the byval argument: a read of 48 bytes.
; CHECK-LABEL: define void @byval(
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 48, i32 0)
; CHECK: call void @take(
define void @byval(ptr %p) {
  call void @take(ptr byval(%struct.big) align 8 %p)
  ret void
}

; CHECK-LABEL: define void @varargs(
; CHECK-NOT: dipc.sfi
; CHECK: ret void
define void @varargs(i32 %n, ...) {
  %ap = alloca [24 x i8], align 16
  call void @llvm.va_start.p0(ptr %ap)
  call void @llvm.va_end.p0(ptr %ap)
  ret void
}

; An empty asm (a compiler barrier) accesses nothing.
; CHECK-LABEL: define void @barrier(
; CHECK-NEXT: call void asm sideeffect "", "~{memory}"()
define void @barrier() {
  call void asm sideeffect "", "~{memory}"()
  ret void
}

; Naked functions are left alone.
; CHECK-LABEL: define void @naked(
; CHECK-NEXT: call void asm sideeffect "movq (%rdi), %rax", ""()
define void @naked() naked {
  call void asm sideeffect "movq (%rdi), %rax", ""() #99
  unreachable
}

; Data frames (SfiDataFrame.cpp). A variable-sized local keeps its alloca
; as the stack it takes (checked as a move: 2, DIPC_SFI_STACK_MOVE) and is
; used at its mirror.
; CHECK-LABEL: define i32 @vla(
; CHECK: call void @__dipc_sfi_check(i64 {{%.*}}, i64 {{%.*}}, i32 2)
; CHECK: %v = alloca i32, i64 %n, align 16
; CHECK-NEXT: %dipc.data.asm = call { i64, i64 } asm sideeffect "# dipc data frame
; CHECK-NEXT: %dipc.data.delta = extractvalue { i64, i64 } %dipc.data.asm, 0
; CHECK-NEXT: %v.data = call align 16 ptr asm "subq $2, $0", "=r,0,r{{.*}}"(ptr %v, i64 %dipc.data.delta)
; CHECK-NEXT: %p = getelementptr i32, ptr %v.data, i64 %i
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 4, i32 1)
; CHECK: call void @use(ptr %v.data)
define i32 @vla(i64 %n, i64 %i) {
  %v = alloca i32, i64 %n, align 16
  %p = getelementptr i32, ptr %v, i64 %i
  store i32 1, ptr %p
  call void @use(ptr %v)
  ret i32 0
}

; A byval argument written at a run-time index: copied into the data frame
; at entry, the copy's read of the ABI's area checked (it is filled only by
; a caller of this signature), then checked like a local.
; CHECK-LABEL: define i64 @byval_indexed(
; CHECK: %dipc.data = alloca [48 x i8], align 16
; CHECK: %s.data = getelementptr inbounds i8, ptr %dipc.data.frame, i64 0
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr{{[0-9]*}}, i64 48, i32 0)
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 8 %s.data, ptr align 8 %s, i64 48, i1 false){{$}}
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr{{[0-9]*}}, i64 8, i32 1)
; CHECK: store i64 %c, ptr %p
define i64 @byval_indexed(ptr byval(%struct.big) align 8 %s, i64 %i) {
  %k = getelementptr inbounds i8, ptr %s, i64 8
  %c = load i64, ptr %k
  %p = getelementptr [6 x i64], ptr %s, i64 0, i64 %i
  store i64 %c, ptr %p
  ret i64 %c
}

; Even at constant offsets inside it a byval argument is no frame object
; of this call: a call through a pointer of another type never filled its
; area (an attack round's callee read and wrote vault's callee stack past
; the guard at constant offsets of an 8 MiB "argument"). Copied, read with
; a check, then used at the copy.
; CHECK-LABEL: define i64 @byval_const(
; CHECK: %dipc.data = alloca [48 x i8], align 16
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr{{[0-9]*}}, i64 48, i32 0)
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 8 %s.data, ptr align 8 %s, i64 48, i1 false){{$}}
; CHECK: ret i64
define i64 @byval_const(ptr byval(%struct.big) align 8 %s) {
  %k = getelementptr inbounds i8, ptr %s, i64 8
  store i64 3, ptr %k
  %c = load i64, ptr %s
  ret i64 %c
}

; A local that stays has its memcpy and memset expanded inline (a call of
; libc's would have its stack range checked as a write, and refused); its
; other side is checked.
; CHECK-LABEL: define i8 @copy_in(
; CHECK: %a = alloca [64 x i8], align 16
; CHECK-NOT: dipc.data
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 64, i32 0)
; CHECK: call void @llvm.memcpy.inline.p0.p0.i64(ptr %a, ptr %src, i64 64, i1 false)
; CHECK-NEXT: call void @llvm.memset.inline.p0.i64(ptr %a, i8 0, i64 8, i1 false)
define i8 @copy_in(ptr %src) {
  %a = alloca [64 x i8], align 16
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %src, i64 64, i1 false)
  call void @llvm.memset.p0.i64(ptr %a, i8 0, i64 8, i1 false)
  %c = load i8, ptr %a
  ret i8 %c
}

; A __builtin_setjmp buffer (a caller stub's recovery buffer) stays in the
; frame whatever its uses: a checked write to it is refused at run time.
; CHECK-LABEL: define i32 @sjlj_buffer(
; CHECK: %buf = alloca [5 x ptr], align 16
; CHECK-NOT: dipc.data
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 8, i32 1)
; CHECK: store ptr null, ptr %p
define i32 @sjlj_buffer(i64 %i) {
  %buf = alloca [5 x ptr], align 16
  %r = call i32 @llvm.eh.sjlj.setjmp(ptr %buf)
  %p = getelementptr [5 x ptr], ptr %buf, i64 0, i64 %i
  store ptr null, ptr %p
  ret i32 %r
}

; A function the unit does not define (not the C library's, as LLVM
; knows it): each pointer argument's page must not be a callee stack's;
; a global at a constant offset inside it is on none.
; CHECK-LABEL: define void @external_args(
; CHECK: %dipc.sfi.arg = ptrtoint ptr %p to i64
; CHECK-NEXT: [[USER:%.*]] = icmp ult i64 %dipc.sfi.arg, 140737488355328
; CHECK: %dipc.sfi.argtag = load i16
; CHECK-NEXT: %dipc.sfi.onstack = icmp eq i16 %dipc.sfi.argtag, 1026
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.arg, i64 1, i32 3)
; CHECK: call void @use(ptr %p)
; CHECK-NOT: dipc.sfi.argtag
; CHECK: call void @use(ptr getelementptr inbounds (i8, ptr @g, i64 4))
define void @external_args(ptr %p) {
  call void @use(ptr %p)
  call void @use(ptr getelementptr inbounds (i8, ptr @g, i64 4))
  ret void
}

; Every call: no tail call, no builtin expansion.
; CHECK: attributes [[ATTRS]] = { "dipc-sfi" "disable-tail-calls"="true" "probe-stack"="inline-asm" }
; CHECK: attributes [[COLD]] = { cold nobuiltin }
; CHECK: attributes [[NOTCOLD]] = { nobuiltin }
; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}

; The passes' own asm (a naked function with user asm is refused:
; clang-sfi-refused.c).
attributes #99 = { "dipc-asm" }
