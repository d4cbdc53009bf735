// try-style recovery costs nothing on the normal path: the stub's call is
// covered by a call-site entry of the LSDA whose landing pad calls
// __dipc_fault_landed; no setjmp, no arming call.
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 -S -o - %s | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O0 -S -o - %s | FileCheck %s
#include <dipc.h>

int get(void) __dom("db") __entry;

// CHECK-LABEL: caller:
// CHECK: .cfi_personality {{.*}}__gcc_personality_v0
// CHECK: .cfi_lsda
// CHECK-NOT: __dipc_setjmp_arm
// CHECK-NOT: EH_SjLj
// CHECK: [[BEGIN:.Ltmp[0-9]+]]:
// CHECK: # dipc caller stub: get
// CHECK-NEXT: callq *%r11
// CHECK: [[END:.Ltmp[0-9]+]]:
// CHECK: [[PAD:.Ltmp[0-9]+]]:
// CHECK: callq __dipc_fault_landed@PLT
// CHECK: GCC_except_table0:
// CHECK: .uleb128 [[END]]-[[BEGIN]]
// CHECK-NEXT: .uleb128 [[PAD]]-.Lfunc_begin0
int caller(void) { return get(); }
