// A later declaration without __dom keeps the domain of the first one, and
// the same domain may be repeated.
// RUN: %dipc-clang -fdipc -S -emit-llvm %s -o - | FileCheck %s
#include <dipc.h>

int query(int key) __dom("db") __entry;
int query(int key) __dom("db");
int query(int key) { return key; }

// CHECK-DAG: [[DOM:@.*]] = {{.*}} c"dipc.dom:db\00"
// CHECK-DAG: { ptr @query, ptr [[DOM]],
// CHECK-NOT: c"dipc.dom:{{[^d]}}
