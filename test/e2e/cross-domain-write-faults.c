// The default domain writing another domain's data faults under mpk and sfi (-fdipc-sfi) (key
// and owner named, SIGSEGV) and the domain's value is never changed.
// Negative controls: `--backend=none` and no -fdipc let the write through
// and the domain reports the overwritten value.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %if pku %{ not --crash %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=MPK %}
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=WRITTEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=WRITTEN
// RUN: %clang -I%dipc-include -O2 %s -o %t.plain && %t.plain | FileCheck %s --check-prefix=WRITTEN
// MPK: before: balance 100
// MPK-NEXT: dipc: protection-key fault: access to 0x{{[0-9a-f]+}} (key {{[0-9]+}}, domain bank) denied to the running domain
// MPK-NOT: after
// SFI: before: balance 100
// SFI-NEXT: dipc: sfi fault: write of {{[0-9]+}} bytes at 0x{{[0-9a-f]+}} (domain bank) denied to the running domain (default)
// SFI-NOT: after
// WRITTEN: before: balance 100
// WRITTEN: after: balance 1000000
#include <dipc.h>
#include <stdio.h>

static long balance __dom("bank") = 100;
long *balance_address(void) __dom("bank") __entry { return &balance; }
long read_balance(void) __dom("bank") __entry { return balance; }

int main(void) {
  long *p = balance_address();
  printf("before: balance %ld\n", read_balance());
  fflush(stdout);
  *(volatile long *)p = 1000000;
  printf("after: balance %ld\n", read_balance());
  return 0;
}
