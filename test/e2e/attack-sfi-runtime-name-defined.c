// The program defines the access checks' slow path itself, as a no-op:
// -fdipc-sfi code calls __dipc_sfi_check by name, so the program's own
// definition would take every denied access and let it through (main
// read vault's secret). Defined in an instrumented unit, the compiler
// refuses it; defined in a plain unit linked into the program, the
// loader refuses the program under `sfi` (any function of an instrumented
// object under a name of the runtime's, dipc/sfi.h). Control: the same
// program under `none` reads the secret.
// RUN: not %dipc-clang -fdipc -fdipc-sfi -O2 -DIN_UNIT %s -o %t.unit 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: %clang -O2 -c %S/Inputs/runtime-name-plain.c -o %t.plain.o
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s %t.plain.o -o %t.sfi
// RUN: not %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=STOLEN
// COMPILE: error: dipc: -fdipc-sfi cannot protect the control flow of '__dipc_sfi_check': its name is one of the runtime's functions
// REFUSED: dipc-loader: refusing {{.*}}: {{.*}}it defines a function '__dipc_sfi_check' under a name of the runtime's
// REFUSED-NOT: stole
// STOLEN: stole 'vault-secret-42'
#include <dipc.h>
#include <stdint.h>
#include <stdio.h>

static char secret[32] __dom("vault") = "vault-secret-42";
const char *vault_address(void) __dom("vault") __entry { return secret; }

#ifdef IN_UNIT
void __dipc_sfi_check(uintptr_t addr, uint64_t size, uint32_t write) {
  (void)addr, (void)size, (void)write;
}
#endif

int main(void) {
  const volatile char *p = vault_address();
  char loot[32];
  for (int i = 0; i < 16; i++)
    loot[i] = p[i];
  loot[16] = 0;
  printf("stole '%s'\n", loot);
  return 0;
}
