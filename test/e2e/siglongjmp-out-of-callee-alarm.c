// The usual time-out pattern: a SIGALRM handler siglongjmps out of a
// callee that never returns (or out of a domain that callee called), 1000
// times in a row: the loader's siglongjmp pops the calls the jump leaves,
// so the KCS depth is 0 after each jump and RSS stays flat; afterwards the
// callee answers normally and another domain's entry is called for the
// first time (before the fix: SIGILL there, and a KCS overflow after 518
// jumps).
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 %s -o %t.setjmp-O0 && %dipc-bin-dir/dipc-run %t.setjmp-O0 alarm 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O2 %s -o %t.setjmp-O2 && %dipc-bin-dir/dipc-run %t.setjmp-O2 alarm 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O0 %s -o %t.try-O0 && %dipc-bin-dir/dipc-run %t.try-O0 alarm 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 %s -o %t.try-O2 && %dipc-bin-dir/dipc-run %t.try-O2 alarm 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.try-O2 alarm 2>&1 | FileCheck %s
// CHECK: siglongjmp: 1000 of 1000 calls left, 0 wrong, max kcs depth after 0
// CHECK-NEXT: rss flat (grew by at most 32 pages)
// CHECK-NEXT: add: 5, dipc_errno 0
// CHECK-NEXT: late (first call): 7, dipc_errno 0, kcs depth 0
#include "Inputs/leave-calls.inc"
