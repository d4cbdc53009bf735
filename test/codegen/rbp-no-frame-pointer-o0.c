// The rbp trap: a frame pointer pins rbp, and the ~{rbp} clobber of a
// reg_confidentiality stub (which zeroes rbp) is then silently ignored. A function with a caller stub has no frame pointer
// even at -O0 (which normally keeps one), so rbp is saved like any register.
// RUN: %dipc-clang -fdipc -O0 -S -o - %s | FileCheck %s
// RUN: %clang -O0 -S -I %dipc-include -o - %s | FileCheck %s --check-prefix=PLAIN
#include <dipc.h>

long get(long) __dom("db") __entry;

// CHECK-LABEL: caller:
// CHECK: pushq %rbp
// CHECK-NOT: movq %rsp, %rbp
// CHECK-NOT: (%rbp)
// CHECK: # dipc caller stub: get
// CHECK: .Lfunc_end0:
// PLAIN-LABEL: caller:
// PLAIN: pushq %rbp
// PLAIN-NEXT: .cfi_def_cfa_offset
// PLAIN-NEXT: .cfi_offset %rbp
// PLAIN-NEXT: movq %rsp, %rbp
long caller(long a) __iso_caller(reg_confidentiality) { return get(a) + a; }
