// A binary whose entry record claims another format version is refused
// before main, naming the object and the record; the unmodified binary
// runs (control).
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: llvm-objcopy --dump-section=dipc_entries=%t.sec %t
// RUN: python3 %S/Inputs/patch-bytes.py %t.sec 0 07000000
// RUN: llvm-objcopy --update-section=dipc_entries=%t.sec %t %t.bad
// RUN: not %dipc-bin-dir/dipc-run %t.bad 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run %t | FileCheck %s --check-prefix=GOOD
// The loader itself, without dipc-run's check of the program file first:
// RUN: not env LD_PRELOAD=%dipc-lib-dir/libdipc-loader.so LD_BIND_NOW=1 DIPC_BACKEND=none %t.bad 2>&1 | FileCheck %s --check-prefix=LOADER
// LOADER: dipc-loader: refusing {{.*}}.bad: malformed dIPC metadata: entry record 0: version 7; this reader reads version 1
// CHECK: dipc-check: refusing {{.*}}.bad: entry record 0: version 7; this reader reads version 1
// CHECK-NOT: lookup=
// GOOD: lookup=3
#include <dipc.h>
#include <stdio.h>

int lookup(int key) __dom("db") __entry { return key + 1; }
int main(void) { printf("lookup=%d\n", lookup(2)); }
