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
// The loader itself, without dipc-run's check of the program file first:
// RUN: sh -c 'env LD_PRELOAD="$0" LD_BIND_NOW=1 DIPC_BACKEND=none "$1"; echo "status $?"' %dipc-lib-dir/libdipc-loader.so %t.bad > %t.loader.out 2>&1
// RUN: FileCheck %s --check-prefix=LOADER < %t.loader.out
// LOADER: dipc-loader: refusing {{.*}}: import record 0 ('lookup'): slot: 0x{{[0-9a-f]+}} is not a slot in the memory of its calling domain 'default' (dipc_slots)
// LOADER: status 78
// CHECK: dipc-check: refusing {{.*}}: import record 0 ('lookup'): slot: 0x{{[0-9a-f]+}} is not a slot in the memory of its calling domain 'default' (dipc_slots)
// CHECK: status 78
// GOOD: lookup=3
#include <dipc.h>
#include <stdio.h>

int lookup(int key) __dom("db") __entry;
int lookup(int key) { return key + 1; }
int main(void) { printf("lookup=%d\n", lookup(2)); }
