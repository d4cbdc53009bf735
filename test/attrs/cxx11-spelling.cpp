// C++: [[dipc::...]] spellings and the dipc.h macros on a static member and
// a namespace-scope function.
// RUN: %dipc-clangxx -fdipc -S -emit-llvm %s -o - | FileCheck %s
#include <dipc.h>

// CHECK-DAG: [[DOM:@.*]] = {{.*}} c"dipc.dom:db\00"
// CHECK-DAG: { ptr @_Z5queryi, ptr [[DOM]],
// CHECK-DAG: { ptr @_ZN5Table6lookupEi, ptr [[DOM]],
[[dipc::dom("db")]] int query(int key) { return key; }
struct Table {
  static int lookup(int key) __dom("db") { return key; }
};
int use() { return Table::lookup(1); }
