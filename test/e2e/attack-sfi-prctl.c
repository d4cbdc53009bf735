// prctl's pointers are variadic arguments, which the compiled-in check of
// a call's arguments does not see, and the kernel reads and writes them
// with no check: an attack round's `evil` had the kernel read vault's
// secret as the thread's name (PR_SET_NAME) and write it back into its
// loot (PR_GET_NAME), and wrote a name of 0x03 bytes over its own rows of
// the rights matrix, which gave it read and write on vault's tag. Under
// `sfi` the loader's prctl lets instrumented code use only the options
// that take no pointer and those whose memory it checks
// (loader/sfi_syscalls.c): both faults, DIPC_EFAULT to main. An option
// the table does not know is refused. Control: under `none` both steal.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi name 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi matrix 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi unknown 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi name 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi matrix 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI: attack returned 0, dipc_errno 14
// SFI-NEXT: nothing stolen
// UNKNOWN: dipc: sfi: prctl(option 1234567) refused
// UNKNOWN: attack returned -1, dipc_errno 0
// STOLEN: stole 'vault-secret-42'
#include "Inputs/vault.h"

#include <dipc/sfi.h>
#include <sys/prctl.h>

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  char saved[16];
  prctl(PR_GET_NAME, saved);
  if (!strcmp(mode, "unknown"))
    return prctl(1234567, 0, 0, 0, 0);
  if (!strcmp(mode, "name")) {
    prctl(PR_SET_NAME, (unsigned long)secret);
    prctl(PR_GET_NAME, loot);
    prctl(PR_SET_NAME, saved);
    return 1;
  }
  char rights[16];
  memset(rights, DIPC_SFI_READ | DIPC_SFI_WRITE, 15);
  rights[15] = 0;
  prctl(PR_SET_NAME, rights);
  // evil's domain number is small: rows 1 to 8 (the others' are harmless).
  for (unsigned long d = 1; d <= 8; ++d)
    prctl(PR_GET_NAME, (unsigned long)(DIPC_SFI_RIGHTS_ADDR + d * DIPC_SFI_TAGS));
  prctl(PR_SET_NAME, saved);
  take(secret, loot);
  return 2;
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "name", NULL);
}
