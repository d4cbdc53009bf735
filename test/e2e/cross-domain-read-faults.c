// The default domain reading another domain's data faults under mpk and sfi (-fdipc-sfi): the
// loader names the address's key and owner, and the process dies with
// SIGSEGV before printing the secret. Negative controls: `--backend=none`
// and the same source without -fdipc both print the stolen secret.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %if pku %{ not --crash %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=MPK %}
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %clang -I%dipc-include -O2 %s -o %t.plain && %t.plain | FileCheck %s --check-prefix=STOLEN
// MPK: reading
// MPK-NEXT: dipc: protection-key fault: access to 0x{{[0-9a-f]+}} (key {{[0-9]+}}, domain vault) denied to the running domain
// MPK-NOT: stole
// SFI: reading
// SFI-NEXT: dipc: sfi fault: read of {{[0-9]+}} bytes at 0x{{[0-9a-f]+}} (domain vault) denied to the running domain (default)
// SFI-NOT: stole
// STOLEN: stole 'vault-secret-42'
#include <dipc.h>
#include <stdio.h>

static char secret[32] __dom("vault") = "vault-secret-42";
const char *secret_address(void) __dom("vault") __entry { return secret; }

int main(void) {
  const char *p = secret_address();
  printf("reading\n");
  fflush(stdout);
  char copy[32];
  for (int i = 0; i < 32; ++i)
    copy[i] = ((volatile const char *)p)[i];
  printf("stole '%s'\n", copy);
  return 0;
}
