// A domain cannot read or write another's pages, but it can ask the kernel
// to drop or replace them. Domain `evil`, which holds no grant at all,
// tries it with raw system calls on the page of domain `vault`'s secret:
// map-fixed: one mmap(MAP_FIXED) of a memfd it filled with "pwned" over
//            the page (the same works on a thread's stack and its return
//            addresses);
// munmap:    munmap of the page, so that vault's next access faults.
// Under mpk the seccomp filter traps both calls and the runtime refuses
// them (EACCES, 13): vault's secret stays what vault made it. Control:
// `none`, where the calls succeed and the secret changes or is gone.
// (madvise(MADV_DONTNEED) is not stopped: attack-dontneed-zeroes-victim.c.)
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t map-fixed 2>&1 | FileCheck %s --check-prefixes=MPK,MPK-FIXED
// RUN: %dipc-bin-dir/dipc-run %t munmap 2>&1 | FileCheck %s --check-prefixes=MPK,MPK-MUNMAP
// RUN: %dipc-bin-dir/dipc-run --backend=none %t map-fixed 2>&1 | FileCheck %s --check-prefix=NONE-FIXED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t munmap 2>&1 | FileCheck %s --check-prefix=NONE-MUNMAP
// MPK-FIXED: dipc: refusing mmap(MAP_FIXED) of {{.*}} from domain {{[0-9]+}}: only the default domain
// MPK-MUNMAP: dipc: refusing munmap of {{.*}} from domain {{[0-9]+}}: only the default domain
// MPK: attack returned -13
// MPK-NEXT: vault holds 'changed-by-vault'
// NONE-FIXED: attack returned 0
// NONE-FIXED-NEXT: vault holds 'pwned'
// NONE-MUNMAP: attack returned 0
// NONE-MUNMAP-NEXT: vault holds '' (dipc_errno 14)
#define _GNU_SOURCE
#include "Inputs/victim-page.h"

#include <sys/mman.h>
#include <sys/syscall.h>

static inline long sys(long nr, long a, long b, long c, long d, long e,
                       long f) {
  long r;
  register long r10 __asm__("r10") = d, r8 __asm__("r8") = e,
                                      r9 __asm__("r9") = f;
  __asm__ volatile("syscall"
                   : "=a"(r)
                   : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
                     "r"(r9)
                   : "rcx", "r11", "memory");
  return r;
}

// No grant: only raw system calls, on its own stack.
long attack(int mode, void *page) __dom("evil") __entry {
  if (mode == 1)
    return sys(SYS_munmap, (long)page, 4096, 0, 0, 0, 0);
  if (mode == 2)
    return sys(SYS_madvise, (long)page, 4096, MADV_DONTNEED, 0, 0, 0);
  char name[2] = {'x', 0}, text[8] = {'p', 'w', 'n', 'e', 'd', 0};
  long fd = sys(SYS_memfd_create, (long)name, 0, 0, 0, 0, 0);
  if (fd < 0 || sys(SYS_write, fd, (long)text, sizeof text, 0, 0, 0) < 0 ||
      sys(SYS_ftruncate, fd, 4096, 0, 0, 0, 0) < 0)
    return -1000;
  long r = sys(SYS_mmap, (long)page, 4096, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_FIXED, fd, 0);
  sys(SYS_close, fd, 0, 0, 0, 0, 0);
  return r == (long)page ? 0 : r;
}

int main(int argc, char **argv) {
  int mode = argc < 2                     ? -1
             : !strcmp(argv[1], "map-fixed") ? 0
             : !strcmp(argv[1], "munmap")    ? 1
             : !strcmp(argv[1], "dontneed")  ? 2
                                             : -1;
  if (mode < 0)
    return 2;
  void *page = vault_page();
  vault_change();
  long r = attack(mode, page);
  printf("attack returned %ld\n", r);
  vault_holds();
  return 0;
}
