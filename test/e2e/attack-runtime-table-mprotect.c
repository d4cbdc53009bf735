// The runtime's memory is safe from loads and stores of other keys, not
// from system calls on its pages. The read-only alias of the PKRU image
// table (RT_RO_TABLE_ADDR, which every gate checks the image it installs
// against) carries the stack key, which every domain may write: domain
// `evil` makes it writable with mprotect (`mprotect`), or punches a hole
// into the memfd behind both aliases with madvise(MADV_REMOVE) on the
// writable one (`remove`), so that every image is 0 (every right), and
// enters a gate (__dipc_setjmp_arm), whose exit installs PKRU 0. Under mpk
// the seccomp filter refuses mprotect inside the runtime's window of fixed
// addresses (tables, thread states, runtime memory) with EPERM, and traps
// madvise(MADV_REMOVE) for the runtime, which refuses it there with EACCES
// (mmcall.c); the read that follows faults and main gets DIPC_EFAULT.
// Under sfi (-fdipc-sfi), where the checks use the rights matrix, not
// these images, the loader refuses both calls on memory the domain may
// not write (EPERM, with a line), and the check refuses the read.
// Control: `none`, either binary.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t mprotect 2>&1 | FileCheck %s --check-prefixes=MPK,MPK-MPROTECT %}
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t remove 2>&1 | FileCheck %s --check-prefixes=MPK,MPK-REMOVE %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi mprotect 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-MPROTECT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi remove 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-REMOVE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t mprotect 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t remove 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi mprotect 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi remove 2>&1 | FileCheck %s --check-prefix=STOLEN
// MPK-NOT: evil read 'vault
// MPK-MPROTECT: mprotect: -1 (Operation not permitted)
// MPK-REMOVE: dipc: refusing madvise of {{.*}}: it is the runtime's memory
// MPK-REMOVE-NEXT: madvise: -1 (Permission denied)
// MPK: attack returned 0, dipc_errno 14
// MPK-NEXT: nothing stolen
// SFI-NOT: evil read 'vault
// SFI-MPROTECT: dipc: sfi: mprotect of memory the domain may not write refused to the running domain (it would undo the isolation)
// SFI-MPROTECT-NEXT: mprotect: -1 (Operation not permitted)
// SFI-REMOVE: dipc: sfi: madvise of memory the domain may not write refused to the running domain (it would undo the isolation)
// SFI-REMOVE-NEXT: madvise: -1 (Operation not permitted)
// SFI: attack returned 0, dipc_errno 14
// SFI-NEXT: nothing stolen
// STOLEN: evil read 'vault-secret-42'
#define _GNU_SOURCE
#include "Inputs/vault.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#define TABLE 0x7ff00000UL /* RT_RO_TABLE_ADDR: 1024 images, then the vector */

void __dipc_setjmp_arm(void **buf); /* libdipc: a gate */

// The writable alias of the table: the other mapping of the same memfd.
static uint32_t *writable_alias(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  char line[512];
  unsigned long lo = 0, hi;
  while (f && fgets(line, sizeof line, f))
    if (strstr(line, "dipc-pkru") && sscanf(line, "%lx-%lx", &lo, &hi) == 2 &&
        lo != TABLE)
      break;
    else
      lo = 0;
  if (f)
    fclose(f);
  return (uint32_t *)lo;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)key;
  long r;
  if (strcmp(mode, "mprotect") == 0) {
    r = mprotect((void *)TABLE, 4096, PROT_READ | PROT_WRITE);
    printf("mprotect: %ld (%s)\n", r, r ? strerror(errno) : "ok");
    if (r == 0)
      memset((void *)TABLE, 0, 4096);
  } else {
    r = madvise(aux, 8192, MADV_REMOVE);
    printf("madvise: %ld (%s)\n", r, r ? strerror(errno) : "ok");
  }
  fflush(stdout);
  // Any gate's exit now installs the (zeroed) image of this domain.
  __dipc_setjmp_arm(NULL);
  take(secret, loot);
  printf("evil read '%s'\n", loot);
  fflush(stdout);
  if (strcmp(mode, "remove") == 0)
    _exit(0); /* the runtime's vector is gone: nothing would return */
  return 0;
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "mprotect", writable_alias());
}
