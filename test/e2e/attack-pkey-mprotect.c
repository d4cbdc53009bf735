// Hole 3, the pkey system calls: protection keys are the kernel's to hand
// out, and a domain that can issue pkey_mprotect, pkey_free or pkey_alloc
// gets another domain's memory. `mprotect`: domain `evil` re-tags the
// vault's page with key 0, which it may read. `realloc`: it frees the
// vault's key and allocates it again, which gives the calling thread every
// right on it. Under mpk the kernel's seccomp filter allows those calls
// only from the runtime: they fail with EPERM, the read that follows
// faults and main gets DIPC_EFAULT. Control: `none`, where the secret
// leaks (the runtime holds no keys there, so every call succeeds).
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t mprotect 2>&1 | FileCheck %s --check-prefixes=MPK,MPK-MPROTECT
// RUN: %dipc-bin-dir/dipc-run %t realloc 2>&1 | FileCheck %s --check-prefixes=MPK,MPK-REALLOC
// RUN: %dipc-bin-dir/dipc-run --backend=none %t mprotect 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t realloc 2>&1 | FileCheck %s --check-prefix=STOLEN
// MPK-MPROTECT: pkey_mprotect: -1 (Operation not permitted)
// MPK-REALLOC: pkey_free: -1 (Operation not permitted)
// MPK-REALLOC: pkey_alloc: -1 (Operation not permitted)
// MPK: attack returned 0, dipc_errno 14
// MPK-NEXT: nothing stolen
// STOLEN: stole 'vault-secret-42'
#define _GNU_SOURCE
#include "Inputs/vault.h"

#include <errno.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static void show(const char *what, long r) {
  printf("%s: %ld (%s)\n", what, r, r < 0 ? strerror(errno) : "ok");
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux;
  void *page = (void *)((uintptr_t)secret & -4096);
  if (strcmp(mode, "mprotect") == 0) {
    show("pkey_mprotect",
         syscall(SYS_pkey_mprotect, page, 4096, PROT_READ | PROT_WRITE, 0));
  } else {
    show("pkey_free", syscall(SYS_pkey_free, key));
    show("pkey_alloc", syscall(SYS_pkey_alloc, 0, 0));
  }
  fflush(stdout);
  take(secret, loot);
  return 0;
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "mprotect", NULL);
}
