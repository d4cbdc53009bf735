// A forged import slot: the default domain overwrites its own slot for
// vault's entry `vault_check` (the hidden `__dipc_slot.<domain>.<policy>.
// <entry>` the pass emits in section dipc_slots) so that its next call
// skips the proxy and lands on the entry's body, on its callee stub (where
// proxies jump to) or on a non-entry function that returns the secret. No
// domain switch happens, so vault's code runs with the caller's rights and
// faults on vault's own data under mpk; the loader names the domain and
// the process dies. Negative control: `--backend=none` runs the forged call
// and, through the non-entry function, leaks the secret.
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: not --crash %dipc-bin-dir/dipc-run %t entry 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK -DHOW=entry
// RUN: not --crash %dipc-bin-dir/dipc-run %t stub 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK -DHOW=stub
// RUN: not --crash %dipc-bin-dir/dipc-run %t non-entry 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK -DHOW=non-entry
// RUN: %dipc-bin-dir/dipc-run --backend=none %t entry 2>&1 | FileCheck %s --check-prefixes=CHECK,RAN -DHOW=entry
// RUN: %dipc-bin-dir/dipc-run --backend=none %t stub 2>&1 | FileCheck %s --check-prefixes=CHECK,RAN -DHOW=stub
// RUN: %dipc-bin-dir/dipc-run --backend=none %t non-entry 2>&1 | FileCheck %s --check-prefixes=CHECK,LEAK -DHOW=non-entry
// CHECK: through the proxy: vault_check(0x5ec7e7) = 1, dipc_errno 0
// CHECK-NEXT: slot forged to [[HOW]]
// MPK-NEXT: dipc: protection-key fault: access to 0x{{[0-9a-f]+}} (key {{[0-9]+}}, domain vault) denied to the running domain
// MPK-NOT: through the forged slot
// RAN-NEXT: through the forged slot: vault_check(0x5ec7e7) = 0x1
// LEAK-NEXT: through the forged slot: vault_check(0x5ec7e7) = 0x5ec7e7
#include <dipc.h>
#include <stdio.h>
#include <string.h>

static long vault_secret __dom("vault") = 0x5ec7e7;

/* Not an entry: only vault's own code may call it. */
__attribute__((noinline)) long vault_dump(long unused) __dom("vault") {
  (void)unused;
  return *(volatile long *)&vault_secret;
}
/* The entry: callers only learn whether they guessed the secret. */
__attribute__((noinline)) long vault_check(long guess) __dom("vault") __entry {
  return vault_dump(0) == guess;
}

/* Symbol addresses taken in asm: in C, &vault_check would be the pass's
 * thunk, which crosses through the proxy like a call. */
#define ADDRESS_OF(sym)                                                        \
  ({                                                                           \
    void *p_;                                                                  \
    __asm__("leaq " sym "(%%rip), %0" : "=r"(p_));                             \
    p_;                                                                        \
  })

int main(int argc, char **argv) {
  /* The default domain's slot for vault_check, policy 0 (none). */
  void **slot = ADDRESS_OF("__dipc_slot.default.00.vault_check");
  long r = vault_check(0x5ec7e7);
  printf("through the proxy: vault_check(0x5ec7e7) = %ld, dipc_errno %d\n", r,
         dipc_errno);
  const char *how = argc > 1 ? argv[1] : "";
  if (!strcmp(how, "entry"))
    *slot = ADDRESS_OF("vault_check");
  else if (!strcmp(how, "stub"))
    *slot = ADDRESS_OF("__dipc_callee.vault_check");
  else if (!strcmp(how, "non-entry"))
    *slot = ADDRESS_OF("vault_dump");
  printf("slot forged to %s\n", how);
  fflush(stdout);
  printf("through the forged slot: vault_check(0x5ec7e7) = %#lx\n",
         vault_check(0x5ec7e7));
  return 0;
}
