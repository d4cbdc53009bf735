// ld.so reads and writes through a dlopen handle as a struct link_map.
// `evil` hands it forged ones (an attack round's): dlclose of a "handle"
// 816 bytes before vault's secret decrements the 32-bit word there (the
// link_map's open count), which, pointed into the rights matrix, gave
// evil every right over vault's memory; dlsym walks a forged one's hash
// tables. Under `sfi` the loader takes only handles the dynamic linker
// made (a loaded object's link_map; RTLD_DEFAULT and RTLD_NEXT for the
// lookups): each call is refused, and a real handle still works
// (`real`). Control: under `none` dlclose writes over the secret and
// dlsym reads through the forged handle until it faults (DIPC_EFAULT).
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t close 2>&1 | FileCheck %s --check-prefix=CLOSE-SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t close 2>&1 | FileCheck %s --check-prefix=CLOSE-NONE
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t sym 2>&1 | FileCheck %s --check-prefix=SYM-SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t sym 2>&1 | FileCheck %s --check-prefix=SYM-NONE
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t real 2>&1 | FileCheck %s --check-prefix=REAL
// CLOSE-SFI: dipc: sfi: dlclose of a handle the dynamic linker did not make refused to the running domain
// CLOSE-SFI: vault's secret unchanged
// CLOSE-NONE: vault's secret changed
// SYM-SFI: dipc: sfi: dlsym or dlvsym of a handle the dynamic linker did not make refused to the running domain
// SYM-SFI: attack returned 0, dipc_errno 0
// SYM-NONE: attack returned 0, dipc_errno 14
// REAL: lookups: main 1, default 1, next 1
// REAL: attack returned 0, dipc_errno 0
#include "Inputs/vault-sum.h"

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key, (void)loot;
  if (!strcmp(mode, "close"))
    return dlclose((void *)(secret + 8 - 816));
  if (!strcmp(mode, "sym"))
    return dlsym((void *)secret, "vault_secret") != NULL;
  void *self = dlopen(NULL, RTLD_NOW);
  printf("lookups: main %d, default %d, next %d\n",
         self && dlsym(self, "strlen") != NULL,
         dlsym(RTLD_DEFAULT, "strlen") != NULL,
         dlsym(RTLD_NEXT, "strlen") != NULL);
  return self ? dlclose(self) : -1;
}

int main(int argc, char **argv) {
  return run_write_attack(argc > 1 ? argv[1] : "close", NULL);
}
