// A domain's zero-fill (NOBITS) data pages are its own under mpk like its
// other data: the snoop domain reading vault's zeroed buffer after vault
// wrote a secret into it faults (DIPC_EFAULT for the caller), and the
// default domain writing it dies. Negative control: `--backend=none` lets
// both through.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-clang -fdipc -O0 -fdipc-recovery=try %s -o %t.O0
// RUN: %dipc-clang -fdipc -fdipc-sfi -O0 -fdipc-recovery=try %s -o %t.O0.sfi
// RUN: llvm-readelf -S %t | FileCheck %s --check-prefix=SECTIONS
// RUN: %if pku %{ not --crash %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK %}
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefixes=CHECK,SFI
// RUN: %if pku %{ not --crash %dipc-bin-dir/dipc-run %t.O0 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK %}
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t.O0.sfi 2>&1 | FileCheck %s --check-prefixes=CHECK,SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefixes=CHECK,NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefixes=CHECK,NONE
// SECTIONS: dipc_bss_vault NOBITS
// CHECK: vault wrote 1
// MPK-NEXT: snoop read 0, dipc_errno 14
// SFI-NEXT: snoop read 0, dipc_errno 14
// NONE-NEXT: snoop read 77, dipc_errno 0
// CHECK-NEXT: writing
// MPK-NEXT: dipc: protection-key fault: access to 0x{{[0-9a-f]+}} (key {{[0-9]+}}, domain vault) denied to the running domain
// SFI-NEXT: dipc: sfi fault: write of {{[0-9]+}} bytes at 0x{{[0-9a-f]+}} (domain vault) denied to the running domain (default)
// MPK-NOT: overwrote
// SFI-NOT: overwrote
// NONE-NEXT: overwrote 0
#include <dipc.h>
#include <stdio.h>

#define SIZE (8 << 20)
static char big[SIZE] __dom("vault");

__dom("vault") __entry char *vault_keep(char secret) {
  big[SIZE / 2] = secret;
  return big;
}

__dom("snoop") __entry int snoop_read(char *p) {
  return ((volatile char *)p)[SIZE / 2];
}

int main(void) {
  char *p = vault_keep(77);
  printf("vault wrote %d\n", p != 0);
  int got = snoop_read(p);
  printf("snoop read %d, dipc_errno %d\nwriting\n", got, dipc_errno);
  fflush(stdout);
  ((volatile char *)p)[SIZE / 2] = 0;
  printf("overwrote %d\n", ((volatile char *)p)[SIZE / 2]);
  return 0;
}
