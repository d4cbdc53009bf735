// A large struct passed by value goes to the stack (byval): the entry's
// definition is rejected, naming it.
// RUN: not %dipc-clang -fdipc -c -o /dev/null %s 2>&1 | FileCheck %s
// RUN: %clang -fsyntax-only -I %dipc-include %s
#include <dipc.h>

struct row { long cells[8]; };

// CHECK: error: dipc: entry point 'sum_row' cannot be called across domains: parameter 1 is passed in memory on the stack
long sum_row(struct row r) __dom("db") __entry;
long sum_row(struct row r) { return r.cells[0] + r.cells[7]; }
