// Under `sfi` the running domain is the word at %gs:40 of the thread's
// state (dipc/sfi.h), so the gs base decides every check: domain `evil`
// builds a state of its own that names vault as the running domain, points
// gs at it with arch_prctl (libc's wrapper, no syscall(2) needed), reads
// vault's secret and puts gs back. The loader refuses arch_prctl's SETs to
// instrumented code (loader/sfi_syscalls.c): EPERM, a message, and the
// read that follows faults (main gets DIPC_EFAULT). Control: under `none`
// the same binary moves gs and back, and steals the secret.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=NONE
// SFI-NOT: stole
// SFI: dipc: sfi: arch_prctl refused to the running domain
// SFI: set gs: -1 (Operation not permitted)
// SFI: attack returned 0, dipc_errno 14
// SFI-NEXT: nothing stolen
// NONE: set gs: 0 (Success)
// NONE: stole 'vault-secret-42'
#include "Inputs/vault.h"

#include <dipc/sfi.h>

#include <asm/prctl.h>
#include <errno.h>

int arch_prctl(int code, unsigned long addr);

long vault_id(void) __dom("vault") __entry { return dipc_current_domain(); }

/* A thread state as compiled-in code reads it: the running domain at +40,
 * the shadow-stack words at DIPC_SFI_SSP_GS_OFFSET (dipc/sfi.h). */
static char fake[0x40000] __attribute__((aligned(4096))) __dom("evil");

/* Called with gs at the forged state: a function reads the running domain
 * at its entry. The secret comes back in registers, since as vault it may
 * write nothing of evil's. */
__attribute__((noinline)) static __uint128_t
read_as_vault(const volatile char *secret) __dom("evil") {
  __uint128_t v = 0;
  for (int i = 15; i >= 0; i--)
    v = v << 8 | (unsigned char)secret[i];
  return v;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)key;
  unsigned long gs = 0;
  arch_prctl(ARCH_GET_GS, (unsigned long)&gs);
  *(uint32_t *)(fake + 40) = (uint32_t)(uintptr_t)aux;
  uintptr_t *words = (uintptr_t *)(fake + DIPC_SFI_SSP_GS_OFFSET);
  words[0] = words[1] = (uintptr_t)(fake + 0x3d000); /* an empty stack */
  long r = arch_prctl(ARCH_SET_GS, (unsigned long)fake);
  int err = r ? errno : 0;
  if (r == 0) {
    __uint128_t got = read_as_vault(secret);
    arch_prctl(ARCH_SET_GS, gs);
    memcpy(loot, &got, sizeof got);
  }
  printf("set gs: %ld (%s)\n", r, strerror(err));
  fflush(stdout);
  if (r != 0)
    take(secret, loot); /* as itself */
  return 1;
}

int main(void) {
  return run_attack("gs", (void *)(uintptr_t)vault_id());
}
