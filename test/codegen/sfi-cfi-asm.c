// -fdipc-sfi at -O2: every function starts 4 bytes after the call magic
// (.long 0xcc1d5fc0); a function that calls pushes {return address, slot}
// on the shadow stack at %gs:0x3e800 (256000) first thing, 7 instructions,
// and before returning checks and pops it, 9 instructions on the fast
// path, __dipc_sfi_ret_slow out of line; a leaf that only reads has
// neither. An indirect call is preceded by 3 instructions: the negated
// magic (0x33e2a040) plus the target's 4 bytes before it, and a branch to
// __dipc_sfi_check_call; the magic itself (3424477120, -870490176,
// 0xcc1d5fc0) is nowhere in a function's code, only in the prefixes. A
// direct call is not checked. A computed goto through a table of its
// labels bounds the index; any other compares with its labels before it
// jumps. A musttail call is refused.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -S -o %t.s %s
// RUN: FileCheck %s < %t.s
// RUN: FileCheck %s --check-prefix=MAGIC < %t.s
// RUN: not %dipc-clang -fdipc -fdipc-sfi -O2 -DMUSTTAIL -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=MUSTTAIL
// RUN: %dipc-clang -fdipc -O2 -S -o - %s | FileCheck %s --check-prefix=PLAIN
#include <stdio.h>
#include <unistd.h>

#ifdef MUSTTAIL
int g(int);
// MUSTTAIL: error: dipc: -fdipc-sfi cannot protect the control flow of 'f': it has a musttail call, after which its return address could not be checked
int f(int x) { __attribute__((musttail)) return g(x); }
#else

// CHECK: .long 3424477120 # 0xcc1d5fc0
// CHECK-NEXT: load:
// CHECK-NOT: %gs:256000
// CHECK: .Lfunc_end0:
// PLAIN-NOT: 3424477120
// PLAIN-NOT: 256000
int load(int *p) { return *p; }

// CHECK: .long 3424477120 # 0xcc1d5fc0
// CHECK-NEXT: say:
// CHECK-NEXT: .cfi_startproc
// CHECK-NEXT: # %bb.0:
// CHECK-NEXT: pushq %rbx
// CHECK-NEXT: .cfi_def_cfa_offset 16
// CHECK-NEXT: .cfi_offset %rbx, -16
// CHECK-NEXT: movq %gs:256000, %r[[OLD:[a-z0-9]+]]
// CHECK-NEXT: leaq -16(%r[[OLD]]), %r[[NEW:[a-z0-9]+]]
// CHECK-NEXT: movq %r[[NEW]], %gs:256000
// CHECK-NEXT: movq 8(%rsp), %r[[RA:[a-z0-9]+]]
// CHECK-NEXT: movq %r[[RA]], -16(%r[[OLD]])
// CHECK-NEXT: leaq 8(%rsp), %r[[SLOT:[a-z0-9]+]]
// CHECK-NEXT: movq %r[[SLOT]], -8(%r[[OLD]])
// CHECK-NEXT: callq usleep@PLT
// CHECK-NEXT: movq %gs:256000, %r[[TOP:[a-z0-9]+]]
// CHECK-NEXT: movq (%r[[TOP]]), %r[[TOPRA:[a-z0-9]+]]
// CHECK-NEXT: movq 8(%rsp), %r[[NOWRA:[a-z0-9]+]]
// CHECK-NEXT: cmpq %r[[SLOT]], 8(%r[[TOP]])
// CHECK-NEXT: jne .LBB1_[[SLOW:[0-9]+]]
// CHECK-NEXT: # %bb.1:
// CHECK-NEXT: cmpq %r[[NOWRA]], %r[[TOPRA]]
// CHECK-NEXT: jne .LBB1_[[SLOW]]
// CHECK-NEXT: # %bb.2:
// CHECK-NEXT: addq $16, %r[[TOP]]
// CHECK-NEXT: movq %r[[TOP]], %gs:256000
// CHECK-NEXT: popq %rbx
// CHECK-NEXT: .cfi_def_cfa_offset 8
// CHECK-NEXT: retq
// CHECK-NEXT: .LBB1_[[SLOW]]:
// CHECK: movq %r[[SLOT]], %rdi
// CHECK: callq __dipc_sfi_ret_slow@PLT
// CHECK: .Lfunc_end1:
__attribute__((noinline)) int say(int c) { return usleep((unsigned)c); }

// CHECK: .long 3424477120 # 0xcc1d5fc0
// CHECK-NEXT: call_ptr:
// CHECK: #APP
// CHECK-NEXT: movl $870490176, %e[[SUM:[a-z0-9]+]] # imm = 0x33E2A040
// CHECK-NEXT: addl -4(%rdi), %e[[SUM]]
// CHECK-NEXT: #NO_APP
// CHECK-NEXT: jne .LBB2_[[CHECK:[0-9]+]]
// CHECK-NEXT: .LBB2_[[GO:[0-9]+]]:
// CHECK-NEXT: movl %e{{.*}}, %edi
// CHECK-NEXT: callq *%r
// CHECK: .LBB2_[[CHECK]]:
// CHECK-NEXT: .cfi_def_cfa_offset
// CHECK-NEXT: movq %r{{.*}}, %rdi
// CHECK-NEXT: callq __dipc_sfi_check_call@PLT
// CHECK-NEXT: jmp .LBB2_[[GO]]
// CHECK: .Lfunc_end2:
int call_ptr(int (*fp)(int), int x) { return fp(x) + 1; }

// CHECK: .long 3424477120 # 0xcc1d5fc0
// CHECK-NEXT: call_direct:
// CHECK-NOT: __dipc_sfi_check_call
// CHECK: callq say
// CHECK-NOT: __dipc_sfi_check_call
// CHECK: .Lfunc_end3:
int call_direct(void) { return say('x'); }

// Through a table of its labels: the index is bounded.
// CHECK: .long 3424477120 # 0xcc1d5fc0
// CHECK-NEXT: dispatch:
// CHECK-NOT: leaq .Ltmp
// CHECK: cmp{{[lq]}} $2, %{{[a-z0-9]+}}
// CHECK-NEXT: jae .LBB4_[[FAIL:[0-9]+]]
// CHECK: jmpq *
// CHECK: .LBB4_[[FAIL]]:
// CHECK: callq __dipc_sfi_cfi_fail@PLT
// CHECK: .Lfunc_end4:
__attribute__((noinline)) int dispatch(unsigned i) {
  static void *const labels[] = {&&a, &&b};
  goto *labels[i];
a:
  return 10;
b:
  return 20;
}

// Anywhere else from: compared with every label.
// CHECK: .long 3424477120 # 0xcc1d5fc0
// CHECK-NEXT: jump:
// CHECK: movq jump_target(%rip), %r[[T:[a-z0-9]+]]
// CHECK-NEXT: leaq .Ltmp{{[0-9]+}}(%rip), %r[[LA:[a-z0-9]+]]
// CHECK-NEXT: cmpq %r[[LA]], %r[[T]]
// CHECK-NEXT: je .LBB5_[[JUMP:[0-9]+]]
// CHECK: leaq .Ltmp{{[0-9]+}}(%rip), %r[[LB:[a-z0-9]+]]
// CHECK-NEXT: cmpq %r[[LB]], %r[[T]]
// CHECK-NEXT: jne .LBB5_[[FAIL:[0-9]+]]
// CHECK-NEXT: .LBB5_[[JUMP]]:
// CHECK-NEXT: jmpq *%r[[T]]
// CHECK: .LBB5_[[FAIL]]:
// CHECK: movl $3, %edi
// CHECK: callq __dipc_sfi_cfi_fail@PLT
// CHECK: .Lfunc_end5:
void *jump_target;
int jump(int set) {
  if (set) {
    jump_target = set == 1 ? &&a : &&b;
    return 0;
  }
  goto *jump_target;
a:
  return 1;
b:
  return 2;
}

// The magic only as the functions' prefixes.
// MAGIC-COUNT-6: .long 3424477120 # 0xcc1d5fc0
// MAGIC-NOT: 3424477120
// MAGIC-NOT: -870490176
// MAGIC-NOT: 0xcc1d5fc0
// MAGIC-NOT: 0xCC1D5FC0
#endif
