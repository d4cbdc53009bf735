// setjmp-style recovery compiles at -O0 and -O2: the buffer is set up
// (SjLj setup, resume label), armed with the runtime right before the call
// (through the runtime vector at 0x7ff01000 = 2146439168, not the PLT: the
// caller may be a domain without access to the default domain's GOT);
// neither path writes dipc_errno (gs:0x3f800 = 260096, the thread's public
// page): the proxy cleared it on a normal return, the runtime's recovery
// set it on a fault (DIPC_EFAULT or DIPC_EEXCEPTION).
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 -S -o - %s | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O2 -S -o - %s | FileCheck %s
#include <dipc.h>

int get(void) __dom("db") __entry;

// CHECK-LABEL: caller:
// CHECK: #EH_SjLj_Setup
// CHECK-DAG: {{callq \*|movq |movl \$}}2146439168
// CHECK-DAG: # dipc caller stub: get
// CHECK-NOT: %gs:260096
// CHECK-NOT: @PLT
// CHECK: .Lfunc_end0:
int caller(void) { return get(); }
