// A variable-sized local moves the stack pointer by a size of the
// program's choosing. `evil` sized one so that the stack pointer landed
// next to vault's secret: the next call's pushes and the callee's frame
// (whose accesses are not checked: they are its own frame's) wrote over
// it. Under `sfi` the stack a variable-sized local takes (and what
// llvm.stackrestore gives back) must be stack the running domain may
// write, checked before the move (llvm-passes/SfiChecks.cpp,
// addDynamicAlloca): every try faults and returns DIPC_EFAULT. The stack
// probes of large frames (codegen/sfi-stack-probes.c) would stop this
// downward move too, and under `none` as well: the check is tested in a
// build without them (-dipc-sfi-stack-probes=false), and the default build
// is stopped either way.
// Control: under `none` a try overwrites the secret.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -mllvm -dipc-sfi-stack-probes=false %s -o %t.noprobe
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.noprobe 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.noprobe 2>&1 | FileCheck %s --check-prefix=NONE
// SFI: vault's secret intact after 128 tries, 128 refused
// NONE: vault's secret overwritten (try {{[0-9]+}})
#include "Inputs/vault.h"

int vault_intact(void) __dom("vault") __entry {
  return strcmp(vault_secret, "vault-secret-42") == 0;
}

static const volatile char *target;

// Its frame is wherever the stack pointer is: its store is not checked.
__attribute__((noinline)) static void *victim_frame(long x) {
  volatile long v = x;
  (void)v;
  return __builtin_frame_address(0);
}

// A local sized to bring the stack pointer down to `target`.
__attribute__((noinline)) static void *pivot(void) {
  long n = (char *)__builtin_frame_address(0) - (const char *)target;
  char buf[n];
  void *volatile keep = buf;
  (void)keep;
  return victim_frame(0x4141414141414141);
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key, (void)loot;
  target = secret + atol(mode);
  pivot();
  return 0;
}

int main(void) {
  const char *secret = vault_address();
  int refused = 0, tries = 0;
  for (int offset = 0; offset < 1024; offset += 8) {
    char mode[16];
    snprintf(mode, sizeof mode, "%d", offset);
    tries++;
    long r = attack(mode, NULL, secret, 0, mode);
    refused += r == 0 && dipc_errno == DIPC_EFAULT;
    if (!vault_intact()) {
      printf("vault's secret overwritten (try %d)\n", tries);
      return 0;
    }
  }
  printf("vault's secret intact after %d tries, %d refused\n", tries, refused);
  return 0;
}
