// OPEN HOLE (XFAIL): under `sfi` a domain may write its own thread's
// callee stack below its running call's start (dipc/sfi.h,
// DIPC_SFI_TAG_STACK), and that is where its functions' prologues save
// their callers' callee-saved registers. The compiled code trusts those
// registers across a call: a checked pointer kept in one, and the page
// index its check computed in another, are used again after the call
// without a new check of the pointer. `helper` finds, in its own frame,
// the saved copy of the pointer `caller` checked and replaces it with
// vault's secret's address; `caller` then reads the secret through it.
// Closing it needs no checked write to land on a callee stack: every local
// a check may reach moved to memory of the domain's that holds no control
// data (docs/runtime.md, "What stays trusted under sfi").
// Control: under `none` the same read steals the byte too.
// XFAIL: *
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// STOLEN: stole 'v'
// SFI-NOT: stole
// SFI: nothing stolen
#include "Inputs/vault.h"

static const volatile char *secret_at;

// Rewrites, in its own frame, every saved word equal to `buf`.
__attribute__((noinline)) static void helper(char *buf) {
  volatile uintptr_t *f = (volatile uintptr_t *)__builtin_frame_address(0);
  for (int i = -16; i <= 2; i++)
    if (f[i] == (uintptr_t)buf)
      f[i] = (uintptr_t)secret_at;
}

// A local on the unsafe stack (it escapes to helper), checked once, kept
// in a callee-saved register across the call, read after it.
__attribute__((noinline)) static long caller(long n) {
  char buf[n];
  buf[0] = 2;
  helper(buf);
  return buf[0];
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)aux, (void)key;
  secret_at = secret;
  loot[0] = (char)caller(16);
  return 0;
}

int main(void) { return run_attack("saved-register", NULL); }
