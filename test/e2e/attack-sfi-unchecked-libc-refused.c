// A C library function that LLVM does not know gets no compiled-in check
// of its pointers but their tags (none may be a callee stack's); the
// loader intercepts some. `evil` calls getloadavg, which neither checks,
// with vault's secret's address: libc writes 24 bytes of load averages
// over it (and insque, called with it, would link vault's memory into
// evil's list). The compiler lists such calls in the object's calls note
// (dipc/sfi.h) and, under `sfi`, the loader refuses a program calling one
// that libc defines and it does not check, before anything runs
// (loader/sfi_calls.c). Control: under `none` the program runs and the
// write lands: vault's secret reads back changed.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: not %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=WRITTEN
// RUN: llvm-readelf --notes %t.sfi | FileCheck %s --check-prefix=NOTE
// SFI: dipc-loader: sfi: the program calls functions of the C library, the dynamic linker or libgcc_s that neither its checks nor the loader's check: getloadavg, insque; refused
// SFI-NOT: attacking
// WRITTEN: vault's secret changed
// NOTE: dipcsfi
#include "Inputs/vault.h"

#include <search.h>

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key, (void)loot;
  if (!strcmp(mode, "link")) {
    static void *elem[2];
    insque((void *)secret, elem);
    return 2;
  }
  return getloadavg((double *)secret, 3);
}

int main(void) {
  char before[32];
  memcpy(before, vault_address(), sizeof before);
  run_attack("write", NULL);
  // Under none the default domain reads vault's memory as it likes.
  printf("vault's secret %s\n",
         memcmp(before, vault_address(), sizeof before) ? "changed"
                                                        : "unchanged");
  return 0;
}
