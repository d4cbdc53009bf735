// A function's prologue saves its caller's callee-saved registers in its
// own frame, and the compiled code trusts them across a call: a checked
// pointer kept in one, and the page index its check computed in another,
// are used again after the call without a new check of the pointer.
// `helper` finds, in its own frame, the saved copy of the pointer
// `caller` checked and replaces it with vault's secret's address (mode
// `direct`: a store; `libc`: read(2) from a pipe holding the address;
// `wide`: wmemcpy, which LLVM does not know as the C library's; `unknown`:
// swab, which the loader does not intercept); `caller` then reads the
// secret through it. Under `sfi` no checked write lands on a callee stack
// (the locals a check may reach live in the stack's data mirror,
// dipc/sfi.h), and no pointer into one is passed to a function the unit
// does not define: the store and the loader's check of read's buffer
// fault, and so does the compiled-in check of wmemcpy's and swab's
// pointer arguments, and the call returns DIPC_EFAULT. Control: under
// `none` the same rewrite steals the byte.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi direct 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi direct 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi libc 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi libc 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi wide 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi wide 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi unknown 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi unknown 2>&1 | FileCheck %s --check-prefix=SFI
// STOLEN: helper: rewrote {{[1-9][0-9]*}} saved word
// STOLEN: stole 'v'
// SFI-NOT: helper: rewrote
// SFI-NOT: stole
// SFI: attack returned 0, dipc_errno 14
// SFI-NEXT: nothing stolen
#include "Inputs/vault.h"

#include <unistd.h>
#include <wchar.h>

static const volatile char *secret_at;
static int rewrote;

// libc writes the secret's address over *slot.
__attribute__((noinline)) static int overwrite(volatile uintptr_t *slot) {
  int fds[2];
  uintptr_t word = (uintptr_t)secret_at;
  return !pipe(fds) && write(fds[1], &word, sizeof word) == sizeof word &&
         read(fds[0], (void *)slot, sizeof word) == sizeof word;
}

// The same with wmemcpy, and with swab (which swaps each pair of bytes).
__attribute__((noinline)) static int overwrite_wide(volatile uintptr_t *slot) {
  uintptr_t word = (uintptr_t)secret_at;
  wmemcpy((wchar_t *)slot, (const wchar_t *)&word, sizeof word / sizeof(wchar_t));
  return 1;
}

__attribute__((noinline)) static int overwrite_unknown(volatile uintptr_t *slot) {
  uintptr_t word = (uintptr_t)secret_at;
  char swapped[sizeof word];
  for (unsigned k = 0; k < sizeof word; k++)
    swapped[k ^ 1] = ((const char *)&word)[k];
  swab(swapped, (void *)slot, sizeof word);
  return 1;
}

// helper_MODE rewrites, in its own frame, every saved word equal to `buf`;
// caller_MODE has a local (it escapes to the helper), checked once, kept
// in a callee-saved register across the call, read after it.
#define ATTACK(mode, rewrite)                                                 \
  __attribute__((noinline)) static void helper_##mode(char *buf) {          \
    volatile uintptr_t *f =                                                 \
        (volatile uintptr_t *)__builtin_frame_address(0);                   \
    for (int i = -16; i <= 2; i++)                                          \
      if (f[i] == (uintptr_t)buf && (rewrite))                              \
        rewrote++;                                                          \
  }                                                                         \
  __attribute__((noinline)) static long caller_##mode(long n) {             \
    char buf[n];                                                            \
    buf[0] = 2;                                                             \
    helper_##mode(buf);                                                     \
    return buf[0];                                                          \
  }
ATTACK(direct, (f[i] = (uintptr_t)secret_at, 1))
ATTACK(libc, overwrite(&f[i]))
ATTACK(wide, overwrite_wide(&f[i]))
ATTACK(unknown, overwrite_unknown(&f[i]))

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  secret_at = secret;
  long (*caller)(long) = !strcmp(mode, "libc")      ? caller_libc
                         : !strcmp(mode, "wide")    ? caller_wide
                         : !strcmp(mode, "unknown") ? caller_unknown
                                                    : caller_direct;
  loot[0] = (char)caller(16);
  printf("helper: rewrote %d saved word%s\n", rewrote, rewrote == 1 ? "" : "s");
  return 0;
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "direct", NULL);
}
