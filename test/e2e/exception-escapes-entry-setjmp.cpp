// A C++ exception escaping an entry does not cross domains: the callee
// stub catches and destroys it and the call returns 0 with dipc_errno ==
// DIPC_EEXCEPTION (131), also inside the caller's own try/catch(...), which
// sees no exception; the domain stays usable and 1000 throws leak nothing
// (Inputs/exception-escapes-entry.inc), -fdipc-recovery=setjmp. Negative
// control: a plain build lets the exception reach the caller's catch.
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=setjmp -O0 -x c++ %S/Inputs/exception-escapes-entry.inc -o %t.0
// RUN: %dipc-bin-dir/dipc-run %t.0 2>&1 | FileCheck %s
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=setjmp -O1 -x c++ %S/Inputs/exception-escapes-entry.inc -o %t.1
// RUN: %dipc-bin-dir/dipc-run %t.1 2>&1 | FileCheck %s
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=setjmp -O2 -x c++ %S/Inputs/exception-escapes-entry.inc -o %t.2
// RUN: %dipc-bin-dir/dipc-run %t.2 2>&1 | FileCheck %s
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=setjmp -O3 -x c++ %S/Inputs/exception-escapes-entry.inc -o %t.3
// RUN: %dipc-bin-dir/dipc-run %t.3 2>&1 | FileCheck %s
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=setjmp -Os -x c++ %S/Inputs/exception-escapes-entry.inc -o %t.s
// RUN: %dipc-bin-dir/dipc-run %t.s 2>&1 | FileCheck %s
// RUN: %clang --driver-mode=g++ -I%dipc-include -O2 -x c++ %S/Inputs/exception-escapes-entry.inc -o %t.plain
// RUN: %t.plain | FileCheck %s --check-prefix=PLAIN
// CHECK: ok: returned 7, dipc_errno 0
// CHECK-NEXT: throw: returned 0, dipc_errno 131
// CHECK-NEXT: again: returned 7, dipc_errno 0
// CHECK-NEXT: throw int: returned 0, dipc_errno 131
// CHECK-NEXT: 1000 throws: 1000 failed with DIPC_EEXCEPTION, rss flat
// CHECK-NEXT: after: returned 7, dipc_errno 0
// CHECK-NEXT: caller caught 0 exceptions
// PLAIN: ok: returned 7, dipc_errno 0
// PLAIN-NEXT: caller caught 1 exceptions
