// An import record whose slot reference points far outside the object (a
// forged or corrupted record) is refused instead of being written through;
// the unmodified binary runs (control).
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: llvm-objcopy --dump-section=dipc_imports=%t.sec %t
// RUN: python3 %S/Inputs/patch-bytes.py %t.sec 32 0000000000000040
// RUN: llvm-objcopy --update-section=dipc_imports=%t.sec %t %t.bad
// RUN: not %dipc-bin-dir/dipc-run %t.bad 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run %t | FileCheck %s --check-prefix=GOOD
// CHECK: import record 0 ('lookup'): slot: 0x{{[0-9a-f]+}} is not a slot in the memory of its calling domain 'default' (dipc_slots)
// GOOD: lookup=3
#include <dipc.h>
#include <stdio.h>

int lookup(int key) __dom("db") __entry;
int lookup(int key) { return key + 1; }
int main(void) { printf("lookup=%d\n", lookup(2)); }
