// Hole 1, trust by name: a library is trusted for being the system's libc
// (its file, checked by device and inode), never for being called
// libc.so.6. The program opens an impostor, DIR/libc.so.6, whose code
// holds a WRPKRU; domain `evil` calls it to open every key and reads the
// vault. Under mpk the runtime refuses the impostor's code when it is
// mapped, like any library's, and the loader stops the program before
// anything of it runs; under `none` (control) the impostor runs and the
// secret leaks.
// REQUIRES: pku
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang -O2 -shared -fPIC %S/Inputs/libc-impostor.c -o %t.dir/libc.so.6
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: not %dipc-bin-dir/dipc-run %t %t.dir/libc.so.6 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t %t.dir/libc.so.6 2>&1 | FileCheck %s --check-prefix=STOLEN
// MPK: dipc: refusing {{.*}}.dir/libc.so.6: it contains a wrpkru instruction
// MPK: dipc-loader: dlopen("{{.*}}.dir/libc.so.6") refused
// MPK-NOT: stole
// STOLEN: opened the impostor
// STOLEN: stole 'vault-secret-42'
#define _GNU_SOURCE
#include "Inputs/vault.h"

#include <dlfcn.h>

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)key;
  ((void (*)(void))aux)();
  take(secret, loot);
  return 0;
}

int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW);
  void *open_all = lib ? dlsym(lib, "open_all_keys") : NULL;
  if (!open_all) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  printf("opened the impostor\n");
  return run_attack("impostor", open_all);
}
