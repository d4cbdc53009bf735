// A header-declared foreign entry that this file only calls: its domain,
// entry and callee-policy facts reach this file's IR (the pass needs them
// to build the caller stub), next to the caller's own facts.
// RUN: %dipc-clang -fdipc -I%S/Inputs -S -emit-llvm %s -o - | FileCheck %s
#include "db.h"

// CHECK-DAG: [[DB:@.*]] = {{.*}} c"dipc.dom:db\00"
// CHECK-DAG: [[WEB:@.*]] = {{.*}} c"dipc.dom:web\00"
// CHECK-DAG: [[ENTRY:@.*]] = {{.*}} c"dipc.entry\00"
// CHECK-DAG: [[ISO:@.*]] = {{.*}} c"dipc.iso_callee:reg_confidentiality\00"
// CHECK-DAG: { ptr @query, ptr [[DB]],
// CHECK-DAG: { ptr @query, ptr [[ENTRY]],
// CHECK-DAG: { ptr @query, ptr [[ISO]],
// CHECK-DAG: { ptr @handle, ptr [[WEB]],
// CHECK-DAG: declare {{.*}} @query(
int handle(void) __dom("web") { return query("select 1"); }
