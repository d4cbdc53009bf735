// Under `sfi` uninstrumented code runs unchecked, trusted: domain `evil`
// tries to bring its own, dlopening a library built without -fdipc whose
// peek() reads any address, and has it read vault's secret. The loader
// refuses a domain's dlopen of a library without the checks (the message
// names the reason) and dlopen returns NULL. Control: `none` loads it and
// the secret leaks.
// RUN: %clang -shared -fPIC -O2 %S/Inputs/plain-peek.c -o %t.peek.so
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -ldl
// RUN: %dipc-clang -fdipc -O2 %s -o %t -ldl
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi %t.peek.so 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t %t.peek.so 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI: dipc-loader: sfi: dlopen("{{.*}}.peek.so") from a domain refused: it has no dIPC records, so no checks; its code would run unchecked
// SFI: dlopen: refused
// SFI: nothing stolen
// STOLEN: dlopen: loaded
// STOLEN: stole 'v'
#include "Inputs/vault.h"

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  void *lib = dlopen(mode, RTLD_NOW);
  printf("dlopen: %s\n", lib ? "loaded" : "refused");
  fflush(stdout);
  if (!lib)
    return 0;
  long (*peek)(const volatile char *) =
      (long (*)(const volatile char *))dlsym(lib, "peek");
  loot[0] = (char)peek(secret);
  return 1;
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "", NULL);
}
