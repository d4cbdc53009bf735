// A program may name its own policy as an enum constant built from the
// dipc.h properties.
// RUN: %dipc-clang -fdipc -S -emit-llvm %s -o - | FileCheck %s
#include <dipc.h>

enum { HIGH = reg_integrity | reg_confidentiality | stack_integrity |
              stack_confidentiality };

// CHECK-DAG: [[ISO:@.*]] = {{.*}} c"dipc.iso_caller:reg_integrity,reg_confidentiality,stack_integrity,stack_confidentiality\00"
// CHECK-DAG: { ptr @handle, ptr [[ISO]],
int handle(void) __iso_caller(HIGH) { return 0; }
