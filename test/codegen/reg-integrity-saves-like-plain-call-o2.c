// Register integrity costs no register saves at -O2: a function keeping two
// values across a cross-domain call under __iso_caller(reg_integrity) saves
// (pushes of rbx, rbp, r12-r15 plus spills) at most one register more than
// the same function making a plain call, since the proxy's return path
// restores the callee-saved registers from its KCS entry and the stub need
// not clobber them. (A stub that clobbered them made it push all six for its
// own caller and spill both values: 8 saves against 2.) setjmp-style
// recovery makes any function with a stub save all six (__builtin_setjmp),
// with or without a policy: there reg_integrity adds nothing to that.
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 -S -o %t.try.s %s
// RUN: python3 %S/Inputs/count-saves.py %t.try.s --at-most crossing plain 1 \
// RUN:   --at-most crossing crossing_no_policy 0 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O2 -S -o %t.sj.s %s
// RUN: python3 %S/Inputs/count-saves.py %t.sj.s \
// RUN:   --at-most crossing crossing_no_policy 0 | FileCheck %s
// The stub is there, and it calls the proxy between the saves and restores.
// RUN: FileCheck %s --check-prefix=ASM < %t.try.s
// CHECK: crossing: {{[0-9]+}} saves
// CHECK: plain: {{[0-9]+}} saves
// CHECK: crossing_no_policy: {{[0-9]+}} saves
// CHECK-NOT: FAIL
// ASM-LABEL: crossing:
// ASM: # dipc caller stub: get
// ASM-NEXT: callq *%r11
// ASM-LABEL: plain:
// ASM: callq plain_get
#include <dipc.h>

long get(long) __dom("db") __entry;
long plain_get(long);

// a and b are live across the call.
long crossing(long a, long b) __iso_caller(reg_integrity) {
  return (get(a) ^ a) * b;
}
long plain(long a, long b) { return (plain_get(a) ^ a) * b; }
long crossing_no_policy(long a, long b) { return (get(a) ^ a) * b; }
