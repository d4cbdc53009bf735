// __entry and __iso_callee on an entry's definition.
// RUN: %dipc-clang -fdipc -S -emit-llvm %s -o - | FileCheck %s
#include <dipc.h>

// CHECK-DAG: [[ENTRY:@.*]] = {{.*}} c"dipc.entry\00"
// CHECK-DAG: [[ISO:@.*]] = {{.*}} c"dipc.iso_callee:reg_integrity,stack_confidentiality\00"
// CHECK-DAG: { ptr @query, ptr [[ENTRY]],
// CHECK-DAG: { ptr @query, ptr [[ISO]],
int query(int key) __dom("db") __entry
    __iso_callee(reg_integrity, stack_confidentiality) {
  return key + 1;
}
