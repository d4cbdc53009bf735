// setjmp-style recovery compiles at -O0 and -O2: the buffer is set up
// (SjLj setup, resume label), armed with the runtime right before the call,
// the normal path clears dipc_errno and the resume path stores DIPC_EFAULT
// (14) to it.
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 -S -o - %s | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O2 -S -o - %s | FileCheck %s
#include <dipc.h>

int get(void) __dom("db") __entry;

// CHECK-LABEL: caller:
// CHECK: #EH_SjLj_Setup
// CHECK-DAG: callq __dipc_setjmp_arm@PLT
// CHECK-DAG: # dipc caller stub: get
// CHECK-DAG: movl $0, (%r{{[a-z0-9]+}})
// CHECK-DAG: movl $14, (%r{{[a-z0-9]+}})
// CHECK: .Lfunc_end0:
int caller(void) { return get(); }
