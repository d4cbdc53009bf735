// -fdipc-sfi's share of a caller stub at -O2: the load of the import slot
// (the stub's own constant) and, setjmp-style, of the runtime vector's
// arm entry are not checked (no __dipc_sfi_check, no tag lookup), and the
// control-flow slow paths are preserve_most, so that a function making
// one cross-domain call saves one register for them (%rbx, its
// return-address slot for the shadow stack) and keeps the argument in
// its register across the call check's slow path rather than in another
// callee-saved register (a Low call saved five before). The call check
// still precedes the proxy's call, and the result comes back in %eax.
// RUN: %dipc-clang -fdipc -fdipc-sfi -fdipc-recovery=try -O2 -S -o %t.s %s
// RUN: FileCheck %s < %t.s
// RUN: %dipc-clang -fdipc -fdipc-sfi -fdipc-recovery=setjmp -O2 -S -o - %s | FileCheck %s --check-prefix=SETJMP
#include <dipc.h>

int callee_increment(int x) __dom("stub_callee") __entry;

// CHECK-LABEL: low_call:
// CHECK: # %bb.0:
// CHECK-NEXT: pushq %rbx
// CHECK-NOT: pushq
// CHECK-NOT: __dipc_sfi_check@PLT
// CHECK-NOT: shrq $12
// CHECK: movq __dipc_slot.default.00.callee_increment(%rip), %r11
// CHECK-NEXT: movl %edi, %edi
// CHECK-NEXT: #APP
// CHECK-NEXT: movl $870490176, %e[[SUM:[a-z0-9]+]]
// CHECK-NEXT: addl -4(%r11), %e[[SUM]]
// CHECK-NEXT: #NO_APP
// CHECK-NEXT: jne .LBB0_[[SLOW:[0-9]+]]
// CHECK-NOT: pushq
// CHECK: # dipc caller stub: callee_increment
// CHECK-NEXT: callq *%r11
// CHECK-NOT: pushq
// CHECK: popq %rbx
// CHECK-NEXT: .cfi_def_cfa_offset 8
// CHECK-NEXT: retq
// CHECK: .LBB0_[[SLOW]]:
// CHECK-NOT: .Lfunc_end0:
// CHECK: callq __dipc_sfi_check_call@PLT
// CHECK-NOT: __dipc_sfi_check@PLT
// CHECK: .Lfunc_end0:
// SETJMP-LABEL: low_call:
// SETJMP-NOT: __dipc_sfi_check@PLT
// SETJMP: callq *2146439168
// SETJMP-NOT: __dipc_sfi_check@PLT
// SETJMP: # dipc caller stub: callee_increment
// SETJMP-NOT: __dipc_sfi_check@PLT
// SETJMP: .Lfunc_end0:
int low_call(int x) { return callee_increment(x); }
