// Arguments the SysV ABI passes in memory reach a callee in another domain
// and results in memory or st0 come back (Inputs/stack-arguments.inc), at
// every optimisation level with -fdipc-recovery=setjmp: with per-domain
// stacks the proxy copies the caller's argument area to the callee's stack;
// under DIPC_SHARED_STACKS=1 the callee reads it in place. Also with
// reg_confidentiality on both sides, and a callee that faults after reading
// its stack arguments (0, DIPC_EFAULT, domain usable again), and callers
// of every shape (thunk, outlined stub).
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 -x c %S/Inputs/stack-arguments.inc -o %t.0
// RUN: %dipc-bin-dir/dipc-run %t.0 2>&1 | FileCheck %s
// RUN: env DIPC_SHARED_STACKS=1 %dipc-bin-dir/dipc-run --backend=none %t.0 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O1 -x c %S/Inputs/stack-arguments.inc -o %t.1
// RUN: %dipc-bin-dir/dipc-run %t.1 2>&1 | FileCheck %s
// RUN: env DIPC_SHARED_STACKS=1 %dipc-bin-dir/dipc-run --backend=none %t.1 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O2 -x c %S/Inputs/stack-arguments.inc -o %t.2
// RUN: %dipc-bin-dir/dipc-run %t.2 2>&1 | FileCheck %s
// RUN: env DIPC_SHARED_STACKS=1 %dipc-bin-dir/dipc-run --backend=none %t.2 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O3 -x c %S/Inputs/stack-arguments.inc -o %t.3
// RUN: %dipc-bin-dir/dipc-run %t.3 2>&1 | FileCheck %s
// RUN: env DIPC_SHARED_STACKS=1 %dipc-bin-dir/dipc-run --backend=none %t.3 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -Os -x c %S/Inputs/stack-arguments.inc -o %t.s
// RUN: %dipc-bin-dir/dipc-run %t.s 2>&1 | FileCheck %s
// RUN: env DIPC_SHARED_STACKS=1 %dipc-bin-dir/dipc-run --backend=none %t.s 2>&1 | FileCheck %s
// CHECK: eight: mask 0xff, dipc_errno 0
// CHECK-NEXT: bigarg: mask 0x1ff, dipc_errno 0
// CHECK-NEXT: ld: result exact, dipc_errno 0
// CHECK-NEXT: mixed: mask 0x3f, dipc_errno 0
// CHECK-NEXT: makebig: all 8, dipc_errno 0
// CHECK-NEXT: eight_conf: mask 0xff, dipc_errno 0
// CHECK-NEXT: bigarg_conf: mask 0x1ff, dipc_errno 0
// CHECK-NEXT: ld_conf: result exact, dipc_errno 0
// CHECK-NEXT: mixed_conf: mask 0x3f, dipc_errno 0
// CHECK-NEXT: makebig_conf: all 8, dipc_errno 0
// CHECK-NEXT: variable-sized local: mask 0x1ff
// CHECK-NEXT: over-aligned local: mask 0x1ff
// CHECK-NEXT: function pointer: mask 0x1ff
// CHECK-NEXT: crash: returned 0, dipc_errno 14
// CHECK-NEXT: again: returned 36, dipc_errno 0
