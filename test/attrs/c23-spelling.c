// The attributes also have [[dipc::...]] spellings.
// RUN: %dipc-clang -fdipc -std=c23 -S -emit-llvm %s -o - | FileCheck %s
#include <dipc.h>

// CHECK-DAG: [[DOM:@.*]] = {{.*}} c"dipc.dom:db\00"
// CHECK-DAG: [[ENTRY:@.*]] = {{.*}} c"dipc.entry\00"
// CHECK-DAG: { ptr @query, ptr [[DOM]],
// CHECK-DAG: { ptr @query, ptr [[ENTRY]],
[[dipc::dom("db"), dipc::entry]] int query(int key) { return key; }
