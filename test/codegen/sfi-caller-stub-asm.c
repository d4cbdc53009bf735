// -fdipc-sfi's share of a caller stub at -O2. The load of the import slot
// (the stub's own constant) and, setjmp-style, of the runtime vector's
// arm entry are not checked (no __dipc_sfi_check, no tag lookup). A
// wrapper (one cross-domain call, no loop: dipc/sfi.h) pushes no
// shadow-stack entry: its stub hands the proxy the address of its
// return-address slot, keyed, in %xmm15 and the word it read there at
// entry (8(%rsp) after its one push) in %xmm14, and calls only a target that
// has the call magic and lies in the runtime's arena (else
// __dipc_sfi_check_proxy_call, preserve_most like every control-flow slow
// path, so nothing is saved for it: the one push keeps the stack
// aligned). A function with two calls, or
// one in a loop, keeps the shadow stack, whose slow path is preserve_most
// (it saves one register, %rbx, its slot's address; a Low call saved five
// before). The call check precedes the proxy's call either way.
// RUN: %dipc-clang -fdipc -fdipc-sfi -fdipc-recovery=try -O2 -S -o %t.s %s
// RUN: FileCheck %s < %t.s
// RUN: %dipc-clang -fdipc -fdipc-sfi -fdipc-recovery=setjmp -O2 -S -o - %s | FileCheck %s --check-prefix=SETJMP
#include <dipc.h>

int callee_increment(int x) __dom("stub_callee") __entry;

// CHECK-LABEL: low_call:
// CHECK: # %bb.0:
// CHECK-NEXT: pushq %rax
// CHECK-NOT: pushq
// CHECK: movq 8(%rsp), %{{[a-z0-9]+}}
// CHECK-NOT: %gs:256000
// CHECK-NOT: __dipc_sfi_check@PLT
// CHECK: movq __dipc_slot.default.00.callee_increment(%rip), %r11
// CHECK: #APP
// CHECK-NEXT: movl $870490176, %[[SUM:[a-z0-9]+]]
// CHECK-NEXT: addl -4(%r11), %[[SUM]]
// CHECK-NEXT: #NO_APP
// CHECK-NEXT: jne .LBB0_[[FAIL:[0-9]+]]
// CHECK: leaq -1744830464(%r11), %[[OFF:[a-z0-9]+]]
// CHECK-NEXT: cmpq $134217728, %[[OFF]]
// CHECK-NEXT: jae .LBB0_[[FAIL]]
// CHECK: movq %{{[a-z0-9]+}}, %xmm15
// CHECK-NEXT: movq %{{[a-z0-9]+}}, %xmm14
// CHECK-NOT: callq
// CHECK: #APP
// CHECK-NEXT: # dipc caller stub: callee_increment
// CHECK-NEXT: movq %xmm15, %rax
// CHECK-NEXT: xorq $-1525693471, %rax
// CHECK-NEXT: movq %rax, %xmm15
// CHECK-NEXT: callq *%r11
// CHECK-NOT: %gs:256000
// CHECK: popq %rcx
// CHECK-NEXT: .cfi_def_cfa_offset 8
// CHECK-NEXT: retq
// CHECK: .LBB0_[[FAIL]]:
// CHECK-NOT: push
// CHECK: movq %r11, %rdi
// CHECK-NOT: push
// CHECK: callq __dipc_sfi_check_proxy_call@PLT
// CHECK-NOT: __dipc_sfi_check_call
// CHECK-NOT: __dipc_sfi_ret_slow
// CHECK: .Lfunc_end0:
// Setjmp-style, the stub's arm and setjmp come first, across which the
// word read at entry would wait in the frame: no wrapper, a shadow stack.
// SETJMP-LABEL: low_call:
// SETJMP-NOT: __dipc_sfi_check@PLT
// SETJMP: %gs:256000
// SETJMP: callq *2146439168
// SETJMP-NOT: __dipc_sfi_check@PLT
// SETJMP: # dipc caller stub: callee_increment
// SETJMP-NEXT: callq *%r11
// SETJMP-NOT: __dipc_sfi_check@PLT
// SETJMP: .Lfunc_end0:
int low_call(int x) { return callee_increment(x); }

// CHECK-LABEL: two_calls:
// CHECK: # %bb.0:
// CHECK-NEXT: pushq %rbx
// CHECK-NEXT: .cfi_def_cfa_offset 16
// CHECK-NEXT: .cfi_offset %rbx, -16
// CHECK-NOT: pushq
// CHECK: %gs:256000
// CHECK-NOT: %xmm15
// CHECK: callq __dipc_sfi_check_call@PLT
// CHECK: callq __dipc_sfi_ret_slow@PLT
// CHECK: .Lfunc_end1:
int two_calls(int x) { return callee_increment(callee_increment(x)); }

// CHECK-LABEL: in_loop:
// CHECK: %gs:256000
// CHECK-NOT: %xmm15
// CHECK: callq __dipc_sfi_ret_slow@PLT
// CHECK: .Lfunc_end2:
int in_loop(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += callee_increment(i);
  return s;
}
