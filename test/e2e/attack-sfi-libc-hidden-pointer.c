// A pointer need not look like one. `evil` calls getloadavg, which writes
// 24 bytes through its first argument, with vault's secret's address
// hidden from the compiled-in checks three ways: declared as taking a
// long (`integer`), declared as taking nothing and called while rdi and
// esi still hold (secret, 3) (`leftover`), and through a function pointer
// of an integer type (`pointer`). The first two are direct calls: the
// calls note names every function the unit calls that is not a C library
// function declared as the library does, whatever its parameters, and
// under `sfi` the loader refuses the program before it runs
// (loader/sfi_calls.c). The third is an indirect call: the runtime's
// call check refuses, as its target, a libc function the loader does not
// check (rt/sfi_cfi.c), so the call faults and returns DIPC_EFAULT (14).
// Controls: under `none` each write lands, and vault's secret, as vault
// reads it, changes.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.direct
// RUN: not %dipc-bin-dir/dipc-run --backend=sfi %t.direct integer 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.direct integer 2>&1 | FileCheck %s --check-prefix=CHANGED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.direct leftover 2>&1 | FileCheck %s --check-prefix=CHANGED
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -DONLY_POINTER %s -o %t.pointer
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.pointer pointer 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.pointer pointer 2>&1 | FileCheck %s --check-prefix=CHANGED
// REFUSED: dipc-loader: sfi: the program calls functions of the C library, the dynamic linker or libgcc_s that neither its checks nor the loader's check: getloadavg; refused
// REFUSED-NOT: attacking
// CHANGED: attack returned 3
// CHANGED: vault's secret changed
// STOPPED: attack returned 0, dipc_errno 14
// STOPPED: vault's secret unchanged
#include "Inputs/vault-sum.h"

#ifndef ONLY_POINTER
// getloadavg under names whose parameters hide the pointer.
int loadavg_at(long where, int count) __asm__("getloadavg");
int loadavg_leftover(void) __asm__("getloadavg");

// rdi and esi still hold (at, count) when getloadavg runs.
__attribute__((noinline)) int leftover(const volatile char *at, int count) {
  __asm__ volatile("" ::"D"(at), "S"(count));
  return loadavg_leftover();
}
#endif

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key, (void)loot;
#ifndef ONLY_POINTER
  if (!strcmp(mode, "integer"))
    return loadavg_at((long)secret, 3);
  if (!strcmp(mode, "leftover")) {
    int (*volatile call)(const volatile char *, int) = leftover;
    return call(secret, 3);
  }
#endif
  int (*volatile fp)(long, int) = (int (*)(long, int))(void *)getloadavg;
  return fp((long)secret, 3);
}

int main(int argc, char **argv) {
  return run_write_attack(argc > 1 ? argv[1] : "integer", NULL);
}
