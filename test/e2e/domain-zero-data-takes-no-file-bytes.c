// A domain's zero-initialised data is zero-fill (SHT_NOBITS): a 30 MiB
// zeroed __dom buffer does not make the program 30 MiB. The buffer reads
// as zero and its domain writes it, at each optimisation level.
// RUN: %dipc-clang -fdipc -O0 %s -o %t.O0
// RUN: %dipc-clang -fdipc -O2 -fdipc-recovery=try %s -o %t.O2
// RUN: %dipc-clang -fdipc -Os -flto %s -o %t.Os
// RUN: echo "bytes $(stat -c %%s %t.O0) $(stat -c %%s %t.O2) $(stat -c %%s %t.Os)" | FileCheck %s --check-prefix=SIZE
// RUN: %dipc-readelf %t.O2 | FileCheck %s --check-prefix=RECORDS
// RUN: llvm-readelf -S %t.O2 | FileCheck %s --check-prefix=SECTIONS
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.O0 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.O2 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.Os | FileCheck %s
// At most six digits: under 1 MB each.
// SIZE: bytes {{[0-9]{1,6} [0-9]{1,6} [0-9]{1,6}$}}
// RECORDS: domain vault
// RECORDS: bss dipc_bss_vault [0x{{[0-9A-F]+}}, 0x{{[0-9A-F]+}}) 768{{[0-9]}} page(s)
// SECTIONS: dipc_bss_vault NOBITS
// CHECK: nonzero 0, wrote 42 at 31457279, count 1
#include <dipc.h>
#include <stdio.h>

#define SIZE (30 << 20)
static char big[SIZE] __dom("vault");
static int count __dom("vault");

__dom("vault") __entry long vault_scan(void) {
  long nonzero = 0;
  for (long i = 0; i < SIZE; i += 512)
    nonzero += ((volatile char *)big)[i] != 0;
  return nonzero;
}

__dom("vault") __entry int vault_write(long at, int value) {
  big[at] = (char)value;
  ++count;
  return ((volatile char *)big)[at];
}

__dom("vault") __entry int vault_count(void) { return count; }

int main(void) {
  long nonzero = vault_scan();
  int wrote = vault_write(SIZE - 1, 42);
  printf("nonzero %ld, wrote %d at %d, count %d\n", nonzero, wrote, SIZE - 1,
         vault_count());
  return 0;
}
