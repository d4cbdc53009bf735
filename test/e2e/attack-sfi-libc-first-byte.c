// The compiled-in check of a call to a C library function LLVM knows
// covers the first byte of each pointer; the function may write well
// past it. `evil` calls modf with its result pointer at the last byte
// before vault's page (memory evil may write): the first byte passes, and
// libc wrote the result's other 7 bytes into vault's page. Every such
// function that takes a pointer is named in the calls note too now, and
// under `sfi` the loader intercepts modf (loader/sfi_math.c), checks all
// 8 bytes, and the call faults: DIPC_EFAULT (14), vault's memory as it
// was. Control: under `none` the write lands.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=CHANGED
// RUN: llvm-readelf -x .note.dipc.sfi %t | FileCheck %s --check-prefix=NOTE
// STOPPED: attack returned 0, dipc_errno 14
// STOPPED: vault's memory unchanged
// CHANGED: attack returned 0, dipc_errno 0
// CHANGED: vault's memory changed
// NOTE: modf
#include "Inputs/vault.h"

#include <math.h>

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)aux, (void)key, (void)loot;
  char *page = (char *)((uintptr_t)secret & -4096);
  return (long)modf(12345.0, (double *)(page - 1));
}

// vault's page up to the end of its secret, as vault reads it.
unsigned vault_sum(void) __dom("vault") __entry {
  const char *page = (const char *)((uintptr_t)vault_secret & -4096);
  unsigned sum = 0;
  for (const char *p = page; p < vault_secret + sizeof vault_secret; ++p)
    sum = sum * 31 + (unsigned char)*p;
  return sum;
}

int main(void) {
  unsigned before = vault_sum();
  run_attack("modf", NULL);
  printf("vault's memory %s\n", before != vault_sum() ? "changed" : "unchanged");
  return 0;
}
