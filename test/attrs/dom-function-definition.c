// __dom on a function definition reaches the IR as a dipc.dom annotation.
// RUN: %dipc-clang -fdipc -S -emit-llvm -O0 %s -o - | FileCheck %s
// RUN: %dipc-clang -fdipc -S -emit-llvm -O2 %s -o - | FileCheck %s
#include <dipc.h>

// CHECK-DAG: [[DOM:@.*]] = {{.*}} c"dipc.dom:db\00", section "llvm.metadata"
// CHECK-DAG: @llvm.global.annotations = {{.*}}{ ptr @lookup, ptr [[DOM]],
__attribute__((used)) int lookup(int key) __dom("db") { return key * 2; }
