// A thread's call time-out (dipc_set_call_timeout, 1 ms) unwinds 1000
// outermost calls in a row that never return, whether the stuck domain is
// the one called or one it called in turn: each call returns 0 with
// dipc_errno == DIPC_ETIMEDOUT, the KCS depth is 0 after each and RSS stays
// flat; a call that returns in time is unaffected; afterwards the callee
// answers normally and another domain's entry is called for the first time.
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 %s -o %t.setjmp-O0 && %dipc-bin-dir/dipc-run %t.setjmp-O0 timeout 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O2 %s -o %t.setjmp-O2 && %dipc-bin-dir/dipc-run %t.setjmp-O2 timeout 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O0 %s -o %t.try-O0 && %dipc-bin-dir/dipc-run %t.try-O0 timeout 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 %s -o %t.try-O2 && %dipc-bin-dir/dipc-run %t.try-O2 timeout 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.try-O2 timeout 2>&1 | FileCheck %s
// CHECK: dipc_set_call_timeout: 0
// CHECK-NEXT: in time: 42, dipc_errno 0
// CHECK-NEXT: time-out: 1000 of 1000 calls left, 0 wrong, max kcs depth after 0
// CHECK-NEXT: rss flat (grew by at most 32 pages)
// CHECK-NEXT: add: 5, dipc_errno 0
// CHECK-NEXT: late (first call): 7, dipc_errno 0, kcs depth 0
#include "Inputs/leave-calls.inc"
