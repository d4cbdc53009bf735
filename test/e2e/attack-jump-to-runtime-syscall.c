// The runtime's trusted syscall instruction (rt/sys.S) is the only one the
// seccomp filter lets change protection keys, and keys do not restrict
// instruction fetch: domain `evil` jumps straight to it (its address comes
// from libdipc's symbol table) with its own registers, asking to re-tag
// the vault's page with key 0. Under mpk the filter also wants the
// process's random cookie in r9, which lives in runtime-key memory: evil's
// guess fails with EPERM, its read faults and main gets DIPC_EFAULT. Under
// `none` there is no filter (the control): the same jump re-tags the page
// and the secret leaks (there it was readable anyway).
// REQUIRES: pku
// RUN: llvm-nm %dipc-lib-dir/libdipc.so | grep ' dipc_syscall_site$' > %t.site
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t %t.site 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t %t.site 2>&1 | FileCheck %s --check-prefix=STOLEN
// MPK: the runtime's pkey_mprotect: -1 (Operation not permitted)
// MPK: attack returned 0, dipc_errno 14
// MPK-NEXT: nothing stolen
// STOLEN: the runtime's pkey_mprotect: 0
// STOLEN: stole 'vault-secret-42'
#define _GNU_SOURCE
#include "Inputs/vault.h"

#include <dipc/rt.h>
#include <dlfcn.h>
#include <errno.h>
#include <sys/mman.h>
#include <sys/syscall.h>

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)key;
  long r = runtime_pkey_mprotect(aux, secret, 0x1234567890abcdef); // a guess
  printf("the runtime's pkey_mprotect: %ld (%s)\n", r < 0 ? -1 : r,
         r < 0 ? strerror((int)-r) : "ok");
  fflush(stdout);
  take(secret, loot);
  return 0;
}

int main(int argc, char **argv) {
  char *site = argc > 1 ? runtime_syscall_site(argv[1]) : NULL;
  if (!site)
    return 2;
  return run_attack("jump", site);
}
