// Properties as a comma-separated list of dipc.h constants; the fact lists
// them in bit order whatever order they were written in.
// RUN: %dipc-clang -fdipc -S -emit-llvm %s -o - | FileCheck %s
#include <dipc.h>

// CHECK-DAG: [[ISO:@.*]] = {{.*}} c"dipc.iso_caller:reg_integrity,reg_confidentiality,stack_integrity\00"
// CHECK-DAG: { ptr @handle, ptr [[ISO]],
int handle(void)
    __iso_caller(stack_integrity, reg_confidentiality, reg_integrity) {
  return 0;
}
