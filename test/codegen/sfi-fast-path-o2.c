// -fdipc-sfi at -O2: the fast path of a load's check is inline and small
// (docs/compiler.md, "SFI checks"): the row of the running domain from
// %gs:40 (once per function), the page's tag from the shadow at
// 0x180000000000, one test of the rights byte at 0x78000000 + row + tag,
// and the page-crossing test (an int the IR says is 4-aligned: its low
// bits); the slow path __dipc_sfi_check is out of line. The caller stub's own asm is accepted, a call to libc is never a
// tail call (libc sees a return address in this code), and va_arg still
// compiles. Without -fdipc-sfi there are no checks.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -S -o - %s | FileCheck %s
// RUN: %dipc-clang -fdipc -O2 -S -o - %s | FileCheck %s --check-prefix=PLAIN
#include <dipc.h>
#include <stdarg.h>
#include <stdio.h>

long get(long) __dom("db") __entry;

// CHECK-LABEL: load:
// CHECK-NEXT: .cfi_startproc
// CHECK-NEXT: # %bb.0:
// CHECK-NEXT: movl %gs:40, %e[[DOM:[a-z]+]]
// CHECK-NEXT: shlq $11, %r[[DOM]]
// CHECK-NEXT: movq %rdi, %r[[PAGE:[a-z]+]]
// CHECK-NEXT: shrq $12, %r[[PAGE]]
// CHECK-NEXT: movabsq $26388279066624, %r[[SHADOW:[a-z]+]] # imm = 0x180000000000
// CHECK-NEXT: movzwl (%r[[SHADOW]],%r[[PAGE]],2), %e[[TAG:[a-z]+]]
// CHECK-NEXT: testb $1, 2013265920(%r[[DOM]],%r[[TAG]])
// CHECK-NEXT: je .LBB0_[[SLOW:[0-9]+]]
// CHECK-NEXT: # %bb.1:
// CHECK-NEXT: testb $3, %dil
// CHECK-NEXT: jne .LBB0_[[SLOW]]
// CHECK-NEXT: # %bb.{{[0-9]+}}:
// CHECK-NEXT: movl (%rdi), %eax
// CHECK-NEXT: retq
// CHECK-NEXT: .LBB0_[[SLOW]]:
// CHECK: movl $4, %esi
// CHECK: xorl %edx, %edx
// CHECK: callq __dipc_sfi_check@PLT
// CHECK: movl (%rdi), %eax
// CHECK: .Lfunc_end0:
// PLAIN-LABEL: load:
// PLAIN-NOT: %gs:40
// PLAIN: movl (%rdi), %eax
// PLAIN-NEXT: retq
int load(int *p) { return *p; }

// CHECK-LABEL: call_db:
// CHECK: # dipc caller stub: get
// CHECK: .Lfunc_end1:
long call_db(long a) { return get(a) + 1; }

// CHECK-LABEL: say:
// CHECK: callq puts@PLT
// CHECK: .Lfunc_end2:
// PLAIN-LABEL: say:
// PLAIN: jmp puts@PLT
int say(const char *s) { return puts(s); }

// CHECK-LABEL: sum:
// CHECK: __dipc_sfi_check
// CHECK: .Lfunc_end3:
int sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int s = 0;
  for (int i = 0; i < n; i++)
    s += va_arg(ap, int);
  va_end(ap);
  return s;
}
