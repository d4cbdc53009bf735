// A signal handler calls across domains: SIGALRM interrupts a callee
// that waits for a flag, the handler calls another entry of that domain
// which sets it (its result is right), and the interrupted callee then
// returns normally (dipc_errno 0, KCS depth 0); the same from a handler
// that interrupted no call. Before the fix the handler's call stopped the
// process (stack pointer outside the thread's stack).
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 %s -o %t.setjmp-O0 && %dipc-bin-dir/dipc-run %t.setjmp-O0 handler 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O2 %s -o %t.setjmp-O2 && %dipc-bin-dir/dipc-run %t.setjmp-O2 handler 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O0 %s -o %t.try-O0 && %dipc-bin-dir/dipc-run %t.try-O0 handler 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 %s -o %t.try-O2 && %dipc-bin-dir/dipc-run %t.try-O2 handler 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.try-O2 handler 2>&1 | FileCheck %s
// CHECK-COUNT-3: spin: 42, dipc_errno 0, handler's call: 42, kcs depth 0
// CHECK-NEXT: outside calls: handler's call: 42, dipc_errno 0
// CHECK-NEXT: handler: 0 of 1000 calls left, 0 wrong, max kcs depth after 0
// CHECK-NEXT: rss flat (grew by at most 32 pages)
// CHECK-NEXT: add: 5, dipc_errno 0
// CHECK-NEXT: late (first call): 7, dipc_errno 0, kcs depth 0
#include "Inputs/leave-calls.inc"
