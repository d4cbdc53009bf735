// An anycall record (an entry's address, docs/abi.md §4) whose stub
// reference points at data instead of code (here: the record itself) is
// refused by the loader and by dipc-readelf, before anything is registered;
// the unmodified binary runs (control).
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: llvm-objcopy --dump-section=dipc_anycalls=%t.sec %t
// RUN: python3 %S/Inputs/patch-bytes.py %t.sec 24 e8ffffffffffffff
// RUN: llvm-objcopy --update-section=dipc_anycalls=%t.sec %t %t.bad
// RUN: not %dipc-bin-dir/dipc-run %t.bad 2>&1 | FileCheck %s
// RUN: not %dipc-bin-dir/dipc-readelf %t.bad 2>&1 | FileCheck %s --check-prefix=READELF
// RUN: %dipc-bin-dir/dipc-run %t | FileCheck %s --check-prefix=GOOD
// CHECK: anycall record 0 ('lookup'): stub: 0x{{[0-9a-f]+}} is not in shared code
// READELF: dipc-readelf: error: {{.*}}.bad: anycall record 0 ('lookup'): stub: 0x{{[0-9a-f]+}} is not in shared code
// GOOD: lookup through its address=3
#include <dipc.h>
#include <stdio.h>

int lookup(int key) __dom("db") __entry;
int lookup(int key) { return key + 1; }
int main(void) {
  int (*volatile fn)(int) = lookup;
  printf("lookup through its address=%d\n", fn(2));
}
