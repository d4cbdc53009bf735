// A library compiled with -fdipc-domain=lib is a domain: its unannotated
// global and static data are lib's, its entry works from the default
// domain, and the default domain reading the library's global directly
// faults under mpk and under sfi (program and library built with
// -fdipc-sfi: an sfi fault naming domain lib, and SIGSEGV). Negative
// control: `--backend=none` prints the secret (mpk and sfi builds).
// RUN: %dipc-clang -fdipc -fdipc-domain=lib -O2 -c %S/Inputs/whole-unit-lib.c -o %t.lib.o
// RUN: %dipc-clang -fdipc -O2 %s %t.lib.o -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -fdipc-domain=lib -O2 -c %S/Inputs/whole-unit-lib.c -o %t.sfi.lib.o
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s %t.sfi.lib.o -o %t.sfi
// RUN: %if pku %{ not --crash %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK %}
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefixes=CHECK,SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefixes=CHECK,STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefixes=CHECK,STOLEN
// RUN: %dipc-clang -fdipc -fdipc-domain=lib -fdipc-recovery=try -O0 -c %S/Inputs/whole-unit-lib.c -o %t.lib0.o
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O0 %s %t.lib0.o -o %t.O0
// RUN: %dipc-clang -fdipc -fdipc-sfi -fdipc-domain=lib -fdipc-recovery=try -O0 -c %S/Inputs/whole-unit-lib.c -o %t.sfi.lib0.o
// RUN: %dipc-clang -fdipc -fdipc-sfi -fdipc-recovery=try -O0 %s %t.sfi.lib0.o -o %t.sfi.O0
// RUN: %if pku %{ not --crash %dipc-bin-dir/dipc-run %t.O0 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK %}
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t.sfi.O0 2>&1 | FileCheck %s --check-prefixes=CHECK,SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi.O0 2>&1 | FileCheck %s --check-prefixes=CHECK,STOLEN
// RUN: %dipc-readelf %t | FileCheck %s --check-prefix=RECORDS
// CHECK: calls 12 13
// CHECK-NEXT: reading
// MPK-NEXT: dipc: protection-key fault: access to 0x{{[0-9a-f]+}} (key {{[0-9]+}}, domain lib) denied to the running domain
// MPK-NOT: stole
// SFI-NEXT: dipc: sfi fault: read of {{[0-9]+}} bytes at 0x{{[0-9a-f]+}} (domain lib) denied to the running domain (default)
// SFI-NOT: stole
// STOLEN-NEXT: stole 'lib-secret-42'
// RECORDS: domain lib
// RECORDS-NEXT: text dipc_text_lib
// RECORDS-NEXT: data dipc_data_lib
// RECORDS: entry lib_call domain=lib
#include <dipc.h>
#include <stdio.h>

__dom("lib") __entry int lib_call(int x);
extern char lib_secret[32]; // the library's, reached without an entry

int main(void) {
  int a = lib_call(10);
  int b = lib_call(10);
  printf("calls %d %d\nreading\n", a, b);
  fflush(stdout);
  char copy[32];
  for (int i = 0; i < 32; ++i)
    copy[i] = ((volatile char *)lib_secret)[i];
  printf("stole '%s'\n", copy);
  return 0;
}
