// Stack arguments are carried up to DIPC_MAX_STACK_BYTES (4096): an entry
// taking a larger struct by value is rejected where it is defined, and a
// call through a declaration at the call, naming the size.
// RUN: not %dipc-clang -fdipc -c -o /dev/null %s 2>&1 | FileCheck %s
// RUN: not %dipc-clang -fdipc -DCALL -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=CALL
// RUN: %clang -fsyntax-only -I %dipc-include %s
#include <dipc.h>

struct row { long cells[513]; };

#ifndef CALL
// CHECK: error: dipc: entry point 'sum_row' cannot be called across domains: its stack arguments take 4104 bytes, more than 4096
long sum_row(long a, struct row r) __dom("db") __entry;
long sum_row(long a, struct row r) { return a + r.cells[0] + r.cells[512]; }
#else
// CALL: error: dipc: cannot call entry point 'get' of domain 'db' across domains: its stack arguments take 4104 bytes, more than 4096
long get(struct row r) __dom("db") __entry;
struct row g;
long f(void) { return get(g); }
#endif
