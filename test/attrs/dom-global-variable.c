// __dom on global variables, initialised or not, static or not.
// RUN: %dipc-clang -fdipc -S -emit-llvm %s -o - | FileCheck %s
#include <dipc.h>

// CHECK-DAG: [[DOM:@.*]] = {{.*}} c"dipc.dom:db\00", section "llvm.metadata"
// CHECK-DAG: { ptr @rows, ptr [[DOM]],
// CHECK-DAG: { ptr @secret, ptr [[DOM]],
int rows __dom("db");
__attribute__((used)) static char secret[16] __dom("db") = "hunter2";
