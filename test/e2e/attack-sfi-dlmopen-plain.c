// Under `sfi` no code may run unchecked but libc's and the trusted
// libraries'; a domain's dlopen of a plain library is refused
// (sfi_library_ok), but dlmopen into a new namespace only refused objects
// *with* dIPC records: domain `evil` dlmopen'd a plain library whose
// constructor copies what the environment names (the vault's secret into
// main's loot). Now every namespace but the base one is refused under
// `sfi` (loader/loader.c). `dlopen`: the same library through dlopen
// (refused before too). Control: under `none` the constructor steals.
// (Found by the attack round of issue #15's session, 2026-11-26.)
// RUN: %clang -O2 -shared -fPIC %S/Inputs/ctor-copy-env.c -o %t.so
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi %t.so 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi %t.so dlopen 2>&1 | FileCheck %s --check-prefix=SFI-DLOPEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi %t.so 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI: dlmopen({{.*}}) refused: under the sfi backend objects load in the base namespace only
// SFI: dlmopen: refused
// SFI-DLOPEN: dlopen: refused
// SFI-NOT: stole '
// SFI-DLOPEN-NOT: stole '
// STOLEN: stole 'vault-secret-42'
#include "Inputs/vault.h"

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)key;
  char env[96];
  snprintf(env, sizeof env, "%lx:%lx:10", (unsigned long)secret,
           (unsigned long)loot);
  setenv("POC_COPY", env, 1);
  void *lib = aux ? dlopen(mode, RTLD_NOW) : dlmopen(LM_ID_NEWLM, mode, RTLD_NOW);
  printf("%s: %s\n", aux ? "dlopen" : "dlmopen", lib ? "loaded" : "refused");
  fflush(stdout);
  return lib != NULL;
}

int main(int argc, char **argv) {
  return run_attack(argv[1], argc > 2 ? (void *)1 : NULL);
}
