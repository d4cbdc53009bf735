; Guarded checks: a check that dominates at least two later accesses at
; constant offsets from the same base, with no call between, also tests
; inline the wider range that covers them all (at most 1024 bytes): %dipc.sfi.ok, true when
; that range lies in one page whose tag the running domain's row grants the
; strongest right needed. Each later access then tests %dipc.sfi.ok and
; makes its own full check (fast path and slow path) only when it is false;
; the root makes its own full check the same way. Nothing faults on the
; wider range itself: the later accesses may never run.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi,verify -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc-sfi,verify -S %t.ll -o - | grep -v -e ModuleID -e '; preds' > %t.twice.ll
; RUN: grep -v -e ModuleID -e '; preds' %t.ll | diff - %t.twice.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare void @use(ptr)

; p[0] (read) and, on one path, p[8..16) (write) and p[16..24) (read): the
; wider range is 24 bytes with the write right; the root's own check and
; the later ones run only when it fails.
; CHECK-LABEL: define i64 @guarded(
; CHECK: %dipc.sfi.wide = ptrtoint ptr %p to i64
; CHECK-NEXT: [[PAGE:%.*]] = lshr i64 %dipc.sfi.wide, 12
; CHECK-NEXT: [[SH:%.*]] = getelementptr i16, ptr inttoptr (i64 26388279066624 to ptr), i64 [[PAGE]]
; CHECK-NEXT: %dipc.sfi.wide.tag = load i16, ptr [[SH]], align 2, !dipc.sfi.check
; CHECK-NEXT: [[TAG:%.*]] = zext i16 %dipc.sfi.wide.tag to i64
; CHECK-NEXT: [[R:%.*]] = getelementptr i8, ptr %dipc.sfi.row, i64 [[TAG]]
; CHECK-NEXT: %dipc.sfi.wide.rights = load i8, ptr [[R]], align 1, !dipc.sfi.check
; CHECK-NEXT: [[BIT:%.*]] = and i8 %dipc.sfi.wide.rights, 2
; CHECK-NEXT: [[GRANTED:%.*]] = icmp ne i8 [[BIT]], 0
; CHECK-NEXT: [[IN:%.*]] = and i64 %dipc.sfi.wide, 4095
; CHECK-NEXT: [[FITS:%.*]] = icmp ule i64 [[IN]], 4072
; CHECK-NEXT: %dipc.sfi.ok = and i1 [[GRANTED]], [[FITS]]
; CHECK-NEXT: %dipc.sfi.notok = xor i1 %dipc.sfi.ok, true
; CHECK-NEXT: br i1 %dipc.sfi.notok, label %dipc.sfi.full, label %[[ROOT:.*]], !prof
; CHECK: dipc.sfi.full:
; CHECK: and i8 %dipc.sfi.rights, 1
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 8, i32 0)
; CHECK: [[ROOT]]:
; CHECK-NEXT: %a = load i64, ptr %p
; CHECK: then:
; CHECK: [[ADDR:%.*]] = add i64 %dipc.sfi.addr{{[0-9]+}}, 8
; CHECK-NEXT: %dipc.sfi.notok{{[0-9]+}} = xor i1 %dipc.sfi.ok, true
; CHECK-NEXT: br i1 %dipc.sfi.notok{{[0-9]+}}, label %dipc.sfi.full{{[0-9]+}}, label %[[LATER:.*]], !prof
; CHECK: dipc.sfi.full{{[0-9]+}}:
; CHECK: and i8 %dipc.sfi.rights{{[0-9]+}}, 2
; CHECK: call void @__dipc_sfi_check(i64 [[ADDR]], i64 8, i32 1)
; CHECK: [[LATER]]:
; CHECK-NEXT: store i64 %a, ptr %q
; CHECK: more:
; CHECK: [[ADDR2:%.*]] = add i64 %dipc.sfi.addr{{[0-9]+}}, 16
; CHECK-NEXT: %dipc.sfi.notok{{[0-9]+}} = xor i1 %dipc.sfi.ok, true
; CHECK: call void @__dipc_sfi_check(i64 [[ADDR2]], i64 8, i32 0)
; CHECK: %b = load i64, ptr %r
define i64 @guarded(ptr %p, i1 %c) {
  %a = load i64, ptr %p
  br i1 %c, label %then, label %done
then:
  %q = getelementptr i8, ptr %p, i64 8
  store i64 %a, ptr %q
  br i1 %c, label %more, label %done
more:
  %r = getelementptr i8, ptr %p, i64 16
  %b = load i64, ptr %r
  br label %done
done:
  %v = phi i64 [ %a, %0 ], [ %a, %then ], [ %b, %more ]
  ret i64 %v
}

; A root that would guard one check only keeps to plain checks: the wider
; test costs more than it saves when that access seldom runs.
; CHECK-LABEL: define i64 @one_later(
; CHECK-NOT: dipc.sfi.ok
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 8, i32 0)
; CHECK: %a = load i64, ptr %p
; CHECK: call void @__dipc_sfi_check(i64 {{%.*}}, i64 8, i32 1)
; CHECK: store i64 %a, ptr %q
; CHECK-NOT: dipc.sfi.ok
; CHECK: ret i64
define i64 @one_later(ptr %p, i1 %c) {
  %a = load i64, ptr %p
  br i1 %c, label %then, label %done
then:
  %q = getelementptr i8, ptr %p, i64 8
  store i64 %a, ptr %q
  br label %done
done:
  ret i64 %a
}

; Kept whole: two later accesses each time, as in @guarded, but a call
; between (it may unmap the page), another base, an offset that would take
; the wider range past 1024 bytes. (The first later access could guard the
; second alone, which is not worth it: see @one_later.)
; CHECK-LABEL: define i64 @call_between(
; CHECK-NOT: dipc.sfi.ok
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 8, i32 0)
; CHECK: %a = load i64, ptr %p
; CHECK: call void @use(ptr null)
; CHECK: call void @__dipc_sfi_check(i64 {{%.*}}, i64 8, i32 0)
; CHECK: %b = load i64, ptr %q
; CHECK: call void @__dipc_sfi_check(i64 {{%.*}}, i64 8, i32 0)
; CHECK: %d = load i64, ptr %r
; CHECK-NOT: dipc.sfi.ok
; CHECK: ret i64
define i64 @call_between(ptr %p, i1 %c) {
  %a = load i64, ptr %p
  br i1 %c, label %then, label %done
then:
  call void @use(ptr null)
  %q = getelementptr i8, ptr %p, i64 8
  %b = load i64, ptr %q
  br i1 %c, label %more, label %done
more:
  %r = getelementptr i8, ptr %p, i64 16
  %d = load i64, ptr %r
  br label %done
done:
  %v = phi i64 [ %a, %0 ], [ %b, %then ], [ %d, %more ]
  ret i64 %v
}

; CHECK-LABEL: define i64 @other_base(
; CHECK-NOT: dipc.sfi.ok
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 8, i32 0)
; CHECK: %a = load i64, ptr %p
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr{{[0-9]+}}, i64 8, i32 0)
; CHECK: %b = load i64, ptr %o
; CHECK: call void @__dipc_sfi_check(i64 {{%.*}}, i64 8, i32 0)
; CHECK: %d = load i64, ptr %r
; CHECK-NOT: dipc.sfi.ok
; CHECK: ret i64
define i64 @other_base(ptr %p, ptr %o, i1 %c) {
  %a = load i64, ptr %p
  br i1 %c, label %then, label %done
then:
  %b = load i64, ptr %o
  br i1 %c, label %more, label %done
more:
  %r = getelementptr i8, ptr %o, i64 8
  %d = load i64, ptr %r
  br label %done
done:
  %v = phi i64 [ %a, %0 ], [ %b, %then ], [ %d, %more ]
  ret i64 %v
}

; CHECK-LABEL: define i64 @too_far(
; CHECK-NOT: dipc.sfi.ok
; CHECK: call void @__dipc_sfi_check(i64 %dipc.sfi.addr, i64 8, i32 0)
; CHECK: %a = load i64, ptr %p
; CHECK: [[FAR:%.*]] = add i64 %dipc.sfi.addr{{[0-9]+}}, 1024
; CHECK: call void @__dipc_sfi_check(i64 [[FAR]], i64 8, i32 0)
; CHECK: %b = load i64, ptr %q
; CHECK: call void @__dipc_sfi_check(i64 {{%.*}}, i64 8, i32 0)
; CHECK: %d = load i64, ptr %r
; CHECK-NOT: dipc.sfi.ok
; CHECK: ret i64
define i64 @too_far(ptr %p, i1 %c) {
  %a = load i64, ptr %p
  br i1 %c, label %then, label %done
then:
  %q = getelementptr i8, ptr %p, i64 1024
  %b = load i64, ptr %q
  br i1 %c, label %more, label %done
more:
  %r = getelementptr i8, ptr %p, i64 1032
  %d = load i64, ptr %r
  br label %done
done:
  %v = phi i64 [ %a, %0 ], [ %b, %then ], [ %d, %more ]
  ret i64 %v
}
