// Without -fdipc the annotations expand to nothing: plain clang-19 compiles
// and runs the program, and no dIPC fact reaches the IR.
// RUN: %clang -I%dipc-include -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang -I%dipc-include %s -o %t && %t | FileCheck %s --check-prefix=OUT
// RUN: %dipc-clang %s -o %t.driver && %t.driver | FileCheck %s --check-prefix=OUT
#include <dipc.h>
#include <stdio.h>

// CHECK-NOT: c"dipc.
// CHECK-NOT: llvm.global.annotations
int query(int key) __dom("db") __entry __iso_callee(reg_confidentiality) {
  return key + 1;
}
int main(void) __perm("db", call) __iso_caller(reg_integrity) {
  int row = query(41);
  // OUT: query=42 dipc_errno=0
  printf("query=%d dipc_errno=%d\n", row, dipc_errno);
  return 0;
}
