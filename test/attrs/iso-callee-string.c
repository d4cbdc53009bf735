// Properties given as a string, separated by ',' or '|'.
// RUN: %dipc-clang -fdipc -S -emit-llvm %s -o - | FileCheck %s
#include <dipc.h>

// CHECK-DAG: [[ISO:@.*]] = {{.*}} c"dipc.iso_callee:reg_confidentiality,stack_integrity,dcs_integrity\00"
// CHECK-DAG: { ptr @query, ptr [[ISO]],
int query(int key) __dom("db") __entry
    __iso_callee("stack_integrity, dcs_integrity | reg_confidentiality") {
  return key;
}
