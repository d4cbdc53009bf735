// Through the driver, an unsupported shape is a clang error at the call:
// seven integer arguments would need the stack.
// RUN: not %dipc-clang -fdipc -g -c -o /dev/null %s 2>&1 | FileCheck %s
// RUN: not %dipc-clang -fdipc -O2 -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=NOLOC
#include <dipc.h>

long get7(long, long, long, long, long, long, long) __dom("db") __entry;

// CHECK: clang-entry-stack-args-rejected.c:[[@LINE+3]]:23: error: dipc: cannot call entry point 'get7' of domain 'db' across domains: parameter 7 does not fit in argument registers and would go on the stack
// NOLOC: error: dipc: cannot call entry point 'get7' of domain 'db' across domains: parameter 7
// NOLOC: 1 error generated.
long f(void) { return get7(1, 2, 3, 4, 5, 6, 7); }
