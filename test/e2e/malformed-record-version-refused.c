// A binary whose entry record claims another format version is refused
// before main, naming the object and the record; the unmodified binary
// runs (control).
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: llvm-objcopy --dump-section=dipc_entries=%t.sec %t
// RUN: python3 %S/Inputs/patch-bytes.py %t.sec 0 07000000
// RUN: llvm-objcopy --update-section=dipc_entries=%t.sec %t %t.bad
// RUN: not %dipc-bin-dir/dipc-run %t.bad 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run %t | FileCheck %s --check-prefix=GOOD
// CHECK: dipc-loader: refusing {{.*}}.bad: malformed dIPC metadata: entry record 0 has version 7; this loader reads version 1
// CHECK-NOT: lookup=
// GOOD: lookup=3
#include <dipc.h>
#include <stdio.h>

int lookup(int key) __dom("db") __entry { return key + 1; }
int main(void) { printf("lookup=%d\n", lookup(2)); }
