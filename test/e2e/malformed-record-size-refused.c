// A grant record whose size field disagrees with the format is refused;
// the unmodified binary runs (control).
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: llvm-objcopy --dump-section=dipc_grants=%t.sec %t
// RUN: python3 %S/Inputs/patch-bytes.py %t.sec 4 ff000000
// RUN: llvm-objcopy --update-section=dipc_grants=%t.sec %t %t.bad
// RUN: not %dipc-bin-dir/dipc-run %t.bad 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run %t | FileCheck %s --check-prefix=GOOD
// CHECK: grant record 0: size 255; version 1 grant records have 32
// GOOD: lookup=3
#include <dipc.h>
#include <stdio.h>

int lookup(int key) __dom("db") __entry __perm("default", read) {
  return key + 1;
}
int main(void) { printf("lookup=%d\n", lookup(2)); }
