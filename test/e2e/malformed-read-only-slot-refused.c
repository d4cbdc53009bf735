// An import record whose slot points at read-only data inside the object
// (here the record's own first reference, 24 bytes before the slot field:
// the records are read-only) is refused with a message and status 78
// before the runtime stores into it; before this check the runtime's store
// segfaulted inside libdipc at start, without a word. The unmodified
// binary runs (control).
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: llvm-objcopy --dump-section=dipc_imports=%t.sec %t
// RUN: python3 %S/Inputs/patch-bytes.py %t.sec 32 e8ffffffffffffff
// RUN: llvm-objcopy --update-section=dipc_imports=%t.sec %t %t.bad
// RUN: sh -c '"$0" "$1"; echo "status $?"' %dipc-bin-dir/dipc-run %t.bad > %t.out 2>&1
// RUN: FileCheck %s < %t.out
// RUN: %dipc-bin-dir/dipc-run %t | FileCheck %s --check-prefix=GOOD
// CHECK: dipc-loader: refusing {{.*}}: malformed dIPC metadata: an import's slot is not in writable data (0x{{[0-9a-f]+}})
// CHECK: status 78
// GOOD: lookup=3
#include <dipc.h>
#include <stdio.h>

int lookup(int key) __dom("db") __entry;
int lookup(int key) { return key + 1; }
int main(void) { printf("lookup=%d\n", lookup(2)); }
