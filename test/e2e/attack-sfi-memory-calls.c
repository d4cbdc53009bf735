// Under `sfi` the kernel checks nothing of a domain's: domain `evil` tries
// to give itself every right through the memory calls of libc. `matrix`:
// it unmaps the rights matrix (dipc/sfi.h) and maps a fresh one full of
// rights at the same address; `syscall`: the same through syscall(2);
// `exec`: it makes a page of its own executable (new code would run
// without the checks); `beside`: it maps a page right below the runtime's
// window, at a hint and with MAP_FIXED_NOREPLACE (libc writing through a
// pointer near that page's end, whose first byte the compiled-in check
// lets through, would run on into the thread states). Each call is refused with EPERM and a message (the
// loader's interceptors, loader/sfi_syscalls.c), and the read of vault's
// secret that follows faults: main gets DIPC_EFAULT. Control: the same
// source without the checks under `none` steals the secret.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi matrix 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-MATRIX
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi syscall 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-SYSCALL
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi exec 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-EXEC
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi beside 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-BESIDE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t beside 2>&1 | FileCheck %s --check-prefixes=STOLEN,NONE-BESIDE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t matrix 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t syscall 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI-NOT: stole
// (The refusals go to stderr at once; the attack's lines when it flushes.)
// SFI-MATRIX: dipc: sfi: munmap of memory the domain may not write refused to the running domain
// SFI-MATRIX: dipc: sfi: mmap over memory the domain may not write refused to the running domain
// SFI-MATRIX: munmap: -1 (Operation not permitted)
// SFI-MATRIX: mmap: failed (Operation not permitted)
// SFI-SYSCALL: dipc: sfi: syscall(2) refused to the running domain
// SFI-SYSCALL-NEXT: syscall munmap: -1 (Operation not permitted)
// SFI-EXEC: dipc: sfi: mprotect with PROT_EXEC refused to the running domain
// SFI-EXEC: mprotect exec: -1 (Operation not permitted)
// SFI-BESIDE: dipc: sfi: mmap next to the runtime's memory refused to the running domain
// SFI-BESIDE: dipc: sfi: mmap over memory the domain may not write refused to the running domain
// SFI-BESIDE: mmap at the hint: Operation not permitted
// SFI-BESIDE-NEXT: mmap fixed: Operation not permitted
// NONE-BESIDE: mmap at the hint: mapped there
// SFI: attack returned 0, dipc_errno 14
// SFI-NEXT: nothing stolen
// STOLEN: stole 'vault-secret-42'
#include "Inputs/vault.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#define MATRIX ((void *)0x78000000UL) /* DIPC_SFI_RIGHTS_ADDR */
#define MATRIX_SIZE (1024UL * 2048)   /* DIPC_SFI_RIGHTS_SIZE */

static char own_page[4096] __attribute__((aligned(4096))) __dom("evil");

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  if (strcmp(mode, "matrix") == 0) {
    long r = munmap(MATRIX, MATRIX_SIZE);
    printf("munmap: %ld (%s)\n", r, r ? strerror(errno) : "ok");
    void *p = mmap(MATRIX, MATRIX_SIZE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    printf("mmap: %s (%s)\n", p == MATRIX ? "mapped" : "failed",
           p == MATRIX ? "ok" : strerror(errno));
    if (p == MATRIX)
      memset(p, 0xff, MATRIX_SIZE);
  } else if (strcmp(mode, "syscall") == 0) {
    long r = syscall(SYS_munmap, MATRIX, MATRIX_SIZE);
    printf("syscall munmap: %ld (%s)\n", r, r ? strerror(errno) : "ok");
  } else if (strcmp(mode, "beside") == 0) {
    void *want = (void *)(0x20000000UL - 4096); /* below the window */
    void *p = mmap(want, 4096, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("mmap at the hint: %s\n",
           p == want ? "mapped there"
           : p == MAP_FAILED ? strerror(errno) : "mapped elsewhere");
    if (p != MAP_FAILED)
      munmap(p, 4096);
    p = mmap(want, 4096, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    printf("mmap fixed: %s\n", p == want ? "mapped there" : strerror(errno));
  } else {
    long r = mprotect(own_page, sizeof own_page,
                      PROT_READ | PROT_WRITE | PROT_EXEC);
    printf("mprotect exec: %ld (%s)\n", r, r ? strerror(errno) : "ok");
  }
  fflush(stdout);
  take(secret, loot);
  return 1;
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "matrix", NULL);
}
