// Properties combined with '|' form one constant expression.
// RUN: %dipc-clang -fdipc -S -emit-llvm %s -o - | FileCheck %s
#include <dipc.h>

// CHECK-DAG: [[ISO:@.*]] = {{.*}} c"dipc.iso_caller:reg_integrity,dcs_confidentiality\00"
// CHECK-DAG: { ptr @handle, ptr [[ISO]],
int handle(void) __iso_caller(reg_integrity | dcs_confidentiality) {
  return 0;
}
