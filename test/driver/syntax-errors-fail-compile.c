// Annotation errors make the compile fail with a nonzero status.
// RUN: not %dipc-clang -fdipc -c %s -o %t.o 2>&1 | FileCheck %s
// CHECK: error: entry point 'vlog' cannot be variadic
// CHECK: 1 error generated.
#include <dipc.h>
int vlog(const char *fmt, ...) __entry;
