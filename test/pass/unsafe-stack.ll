; dipc-unsafe-stack moves exactly the escaping static locals to the thread's
; unsafe stack: one checked prologue (load %gs:0x3f810, carve, check against
; the vector's bounds 0x7ff01028/0x7ff01030, store the new top), the locals
; at fixed offsets from it, the caller's pointer stored back before every
; return and the new top again after landing pads and setjmp-like calls.
; Non-escaping locals (volatile accesses and nocapture calls included),
; setjmp buffers, va_lists and variable-sized locals stay where they are.
; Running it twice changes nothing more.
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc-unsafe-stack,verify -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc-unsafe-stack,verify -S %t.ll -o - | grep -v ModuleID > %t.twice.ll
; RUN: grep -v ModuleID %t.ll | diff - %t.twice.ll
; RUN: opt -load-pass-plugin=%pass-plugin -passes=dipc-unsafe-stack -dipc-unsafe-stack=false -S %s | FileCheck %s --check-prefix=OFF
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare void @keep(ptr)
declare void @look(ptr nocapture readonly)
declare i32 @setjmp(ptr) returns_twice
declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_end.p0(ptr)
declare i32 @__gxx_personality_v0(...)

; CHECK-LABEL: define void @escaping(
; CHECK-NEXT: %quiet = alloca i32
; CHECK-NEXT: %dipc.unsafe.frame = call { i64, i64, i64 } asm sideeffect "# dipc unsafe frame: 80 bytes{{.*}}movq %gs:0x3f810, $1{{.*}}leaq -80($1), $0{{.*}}andq $$-32, $0{{.*}}cmpq 0x7ff01028, $0{{.*}}cmpq 0x7ff01030, $0{{.*}}leaq 80($0), $2{{.*}}cmpq 0x7ff01030, $2{{.*}}ud2{{.*}}movq $0, %gs:0x3f810", "=&r,=&r,=&r,~{memory}
; CHECK-NEXT: %dipc.unsafe.top = extractvalue { i64, i64, i64 } %dipc.unsafe.frame, 0
; CHECK-NEXT: %dipc.unsafe.caller = extractvalue { i64, i64, i64 } %dipc.unsafe.frame, 1
; CHECK-NEXT: [[BASE:%.*]] = inttoptr i64 %dipc.unsafe.top to ptr
; CHECK-NEXT: %wide.unsafe = getelementptr inbounds i8, ptr [[BASE]], i64 0
; CHECK-NEXT: %slot.unsafe = getelementptr inbounds i8, ptr [[BASE]], i64 32
; CHECK-NEXT: %buf.unsafe = getelementptr inbounds i8, ptr [[BASE]], i64 40
; CHECK-NOT: alloca
; CHECK-NOT: lifetime
; CHECK: call void @keep(ptr %buf.unsafe)
; CHECK: call void @keep(ptr %wide.unsafe)
; CHECK: store ptr %slot.unsafe, ptr @sink
; CHECK: call void asm sideeffect "movq $0, %gs:0x3f810", "r,~{memory}{{.*}}"(i64 %dipc.unsafe.caller)
; CHECK-NEXT: ret void
@sink = global ptr null
define void @escaping() {
  %buf = alloca [40 x i8], align 1
  %quiet = alloca i32, align 4
  %wide = alloca <8 x i32>, align 32
  %slot = alloca i64, align 8
  call void @llvm.lifetime.start.p0(i64 40, ptr %buf)
  call void @keep(ptr %buf)
  call void @keep(ptr %wide)
  store ptr %slot, ptr @sink
  store volatile i32 1, ptr %quiet
  call void @llvm.lifetime.end.p0(i64 40, ptr %buf)
  ret void
}
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)

; Non-escaping: nothing changes.
; CHECK-LABEL: define i32 @private(
; CHECK-NEXT: %a = alloca [16 x i8]
; CHECK-NEXT: %b = alloca i32
; CHECK-NOT: asm
; CHECK: ret i32
define i32 @private(i64 %i) {
  %a = alloca [16 x i8], align 16
  %b = alloca i32, align 4
  call void @look(ptr %a)
  %p = getelementptr i8, ptr %a, i64 %i
  store volatile i8 7, ptr %p
  store volatile i32 3, ptr %b
  %v = load volatile i32, ptr %b
  ret i32 %v
}

; Control data and variable-sized locals stay, escaping or not.
; CHECK-LABEL: define void @control(
; CHECK-NEXT: %jb = alloca [200 x i8]
; CHECK-NEXT: %ap = alloca [24 x i8]
; CHECK-NOT: asm
; CHECK: %vla = alloca i8, i64 %n
; CHECK-NOT: asm
; CHECK: ret void
define void @control(i64 %n, ...) {
  %jb = alloca [200 x i8], align 16
  %ap = alloca [24 x i8], align 16
  %r = call i32 @setjmp(ptr %jb)
  call void @keep(ptr %jb)
  call void @llvm.va_start.p0(ptr %ap)
  call void @keep(ptr %ap)
  call void @llvm.va_end.p0(ptr %ap)
  %vla = alloca i8, i64 %n, align 1
  call void @keep(ptr %vla)
  ret void
}

; Restore points: after a setjmp-like call and after a landing pad the new
; top is stored again; every return stores the caller's pointer back.
; CHECK-LABEL: define void @restores(
; CHECK-NEXT: %jb = alloca [200 x i8]
; CHECK-NEXT: %dipc.unsafe.frame = call
; CHECK: call i32 @setjmp(ptr %jb)
; CHECK-NEXT: call void asm sideeffect "movq $0, %gs:0x3f810", {{.*}}(i64 %dipc.unsafe.top)
; CHECK: call void asm sideeffect "movq $0, %gs:0x3f810", {{.*}}(i64 %dipc.unsafe.caller)
; CHECK-NEXT: ret void
; CHECK: landingpad
; CHECK-NEXT: cleanup
; CHECK-NEXT: call void asm sideeffect "movq $0, %gs:0x3f810", {{.*}}(i64 %dipc.unsafe.top)
; CHECK-NEXT: resume
define void @restores() personality ptr @__gxx_personality_v0 {
  %jb = alloca [200 x i8], align 16
  %buf = alloca [8 x i8], align 1
  %r = call i32 @setjmp(ptr %jb)
  invoke void @keep(ptr %buf) to label %ok unwind label %pad
ok:
  ret void
pad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; musttail: the pointer goes back before the call.
; CHECK-LABEL: define void @tail(
; CHECK: call void asm sideeffect "movq $0, %gs:0x3f810", {{.*}}(i64 %dipc.unsafe.caller)
; CHECK-NEXT: musttail call void @keep(
; CHECK-NEXT: ret void
define void @tail(ptr %p) {
  %buf = alloca [8 x i8], align 1
  call void @keep(ptr %buf)
  musttail call void @keep(ptr %p)
  ret void
}

; OFF-NOT: dipc unsafe frame
