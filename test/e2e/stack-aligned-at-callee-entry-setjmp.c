// A callee starts with a SysV-aligned stack (rsp + 8 = 0 mod 16 at its
// first instruction) from a caller of any shape, at every optimisation
// level, with -fdipc-recovery=setjmp: its frame address is 16-byte aligned,
// an aligned vector store to its stack and snprintf("%f") (movaps of the
// xmm save area) work. Under DIPC_SHARED_STACKS=1 the callee runs on its
// caller's stack, so this is the caller stub's alignment; with per-domain
// stacks the proxy's. Shapes: a leaf wrapper whose only call is the stub,
// a call through a function pointer, callers with a variable-sized or an
// over-aligned local (the last two through the entry's thunk). Same test
// for try style: -try.c.
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 %s -o %t.sj0
// RUN: %dipc-bin-dir/dipc-run %t.sj0 2>&1 | FileCheck %s
// RUN: env DIPC_SHARED_STACKS=1 %dipc-bin-dir/dipc-run --backend=none %t.sj0 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O1 %s -o %t.sj1
// RUN: %dipc-bin-dir/dipc-run %t.sj1 2>&1 | FileCheck %s
// RUN: env DIPC_SHARED_STACKS=1 %dipc-bin-dir/dipc-run --backend=none %t.sj1 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O2 %s -o %t.sj2
// RUN: %dipc-bin-dir/dipc-run %t.sj2 2>&1 | FileCheck %s
// RUN: env DIPC_SHARED_STACKS=1 %dipc-bin-dir/dipc-run --backend=none %t.sj2 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O3 %s -o %t.sj3
// RUN: %dipc-bin-dir/dipc-run %t.sj3 2>&1 | FileCheck %s
// RUN: env DIPC_SHARED_STACKS=1 %dipc-bin-dir/dipc-run --backend=none %t.sj3 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -Os %s -o %t.sjs
// RUN: %dipc-bin-dir/dipc-run %t.sjs 2>&1 | FileCheck %s
// RUN: env DIPC_SHARED_STACKS=1 %dipc-bin-dir/dipc-run --backend=none %t.sjs 2>&1 | FileCheck %s
// CHECK: leaf wrapper: returned 7, frame%16 0, vector 6, text 0.25, dipc_errno 0
// CHECK-NEXT: function pointer: returned 7, frame%16 0, vector 6, text 0.25, dipc_errno 0
// CHECK-NEXT: variable-sized local: returned 7, frame%16 0, vector 6, text 0.25, dipc_errno 0
// CHECK-NEXT: over-aligned local: returned 7, frame%16 0, vector 6, text 0.25, dipc_errno 0
#include "Inputs/stack-aligned-at-callee-entry.inc"
