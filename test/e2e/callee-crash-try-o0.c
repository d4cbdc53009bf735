// A callee domain raising SIGSEGV, SIGILL, SIGFPE or SIGBUS returns control
// to its caller (-fdipc-recovery=try, -O0): the call yields 0 with
// dipc_errno == DIPC_EFAULT, the KCS is unwound, and the callee domain
// answers the next call normally. Negative control: without -fdipc the
// same crash kills the process.
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O0 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t ok segv ill fpe bus 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t ok segv ill fpe bus 2>&1 | FileCheck %s
// RUN: %clang -I%dipc-include -O0 %s -o %t.plain
// RUN: not --crash %t.plain segv 2>&1 | FileCheck %s --check-prefix=PLAIN
// CHECK: ok: returned 7, dipc_errno 0, kcs depth 0
// CHECK-NEXT: again: returned 7, dipc_errno 0
// CHECK-NEXT: segv: returned 0, dipc_errno 14, kcs depth 0
// CHECK-NEXT: again: returned 7, dipc_errno 0
// CHECK-NEXT: ill: returned 0, dipc_errno 14, kcs depth 0
// CHECK-NEXT: again: returned 7, dipc_errno 0
// CHECK-NEXT: fpe: returned 0, dipc_errno 14, kcs depth 0
// CHECK-NEXT: again: returned 7, dipc_errno 0
// CHECK-NEXT: bus: returned 0, dipc_errno 14, kcs depth 0
// CHECK-NEXT: again: returned 7, dipc_errno 0
// PLAIN-NOT: returned
#include "Inputs/callee-crash.inc"
