// __perm lowers to one dipc.perm:<dom>:<perm> fact per grant; the
// permission may be written bare or quoted.
// RUN: %dipc-clang -fdipc -S -emit-llvm %s -o - | FileCheck %s
#include <dipc.h>

// CHECK-DAG: [[CALL:@.*]] = {{.*}} c"dipc.perm:db:call\00"
// CHECK-DAG: [[READ:@.*]] = {{.*}} c"dipc.perm:cache:read\00"
// CHECK-DAG: [[WRITE:@.*]] = {{.*}} c"dipc.perm:log:write\00"
// CHECK-DAG: { ptr @handle, ptr [[CALL]],
// CHECK-DAG: { ptr @handle, ptr [[READ]],
// CHECK-DAG: { ptr @handle, ptr [[WRITE]],
int handle(void) __dom("web") __perm("db", call) __perm("cache", read)
    __perm("log", "write") {
  return 0;
}
