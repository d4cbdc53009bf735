// Hole 3, code that runs before it is checked: a library's constructors
// run inside dlopen, before dlopen returns to the loader's wrapper. The
// program opens a library whose constructor opens every key with its own
// WRPKRU and reads the vault. Under mpk its code is checked when it is
// mapped (the kernel's seccomp filter hands every request for executable
// memory to the runtime), so it is refused before any of it runs and the
// program stops; under `none` (control) the constructor steals the secret.
// REQUIRES: pku
// RUN: %clang -O2 -shared -fPIC %S/Inputs/ctor-wrpkru.c -o %t.so
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: not %dipc-bin-dir/dipc-run %t %t.so 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t %t.so 2>&1 | FileCheck %s --check-prefix=STOLEN
// MPK: dlopen
// MPK-NOT: stole
// MPK: dipc: refusing {{.*}}.so: it contains a wrpkru instruction
// MPK-NOT: stole
// MPK: dipc-loader: dlopen("{{.*}}.so") refused
// STOLEN: constructor stole 'vault-secret-42'
#define _GNU_SOURCE
#include "Inputs/vault.h"

#include <dlfcn.h>

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)aux, (void)secret, (void)key, (void)loot;
  return 0;
}

int main(int argc, char **argv) {
  char at[32];
  snprintf(at, sizeof at, "%lx", (unsigned long)vault_address());
  setenv("VAULT", at, 1);
  printf("dlopen\n");
  fflush(stdout);
  void *lib = dlopen(argv[1], RTLD_NOW);
  printf("dlopen returned %s\n", lib ? "a handle" : dlerror());
  return 0;
}
