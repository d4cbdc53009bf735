// attack-replace-victim-memory.c's attacks, under sfi (-fdipc-sfi), where
// raw system calls cannot be compiled in (inline assembly is refused), so
// domain `evil`, with no grant, asks libc: an mmap(MAP_FIXED) of a memfd
// it filled with "pwned" over the page of vault's secret (`map-fixed`),
// munmap of the page, madvise(MADV_DONTNEED) (which resets it to the
// executable's bytes), mprotect(PROT_NONE), and mremap moving it away.
// The loader's interceptors refuse each (a line on stderr, -1): vault's
// page keeps what vault wrote there. Control: `none`, where each call
// succeeds and vault's page is replaced, reset or gone (vault's read
// faults: dipc_errno 14).
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t map-fixed 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-MAP
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t munmap 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-MUNMAP
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t dontneed 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-MADVISE
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t mprotect 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-MPROTECT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t mremap 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-MREMAP
// RUN: %dipc-bin-dir/dipc-run --backend=none %t map-fixed 2>&1 | FileCheck %s --check-prefix=NONE-MAP
// RUN: %dipc-bin-dir/dipc-run --backend=none %t munmap 2>&1 | FileCheck %s --check-prefix=NONE-GONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t dontneed 2>&1 | FileCheck %s --check-prefix=NONE-RESET
// RUN: %dipc-bin-dir/dipc-run --backend=none %t mprotect 2>&1 | FileCheck %s --check-prefix=NONE-GONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t mremap 2>&1 | FileCheck %s --check-prefix=NONE-GONE
// SFI-MAP: dipc: sfi: mmap over memory the domain may not write refused
// SFI-MUNMAP: dipc: sfi: munmap of memory the domain may not write refused
// SFI-MADVISE: dipc: sfi: madvise of memory the domain may not write refused
// SFI-MPROTECT: dipc: sfi: mprotect of memory the domain may not write refused
// SFI-MREMAP: dipc: sfi: mremap that moves, grows or maps memory again refused
// SFI: attack returned -1 (dipc_errno 0)
// SFI-NEXT: vault holds 'changed-by-vault'
// NONE-MAP: attack returned 0 (dipc_errno 0)
// NONE-MAP-NEXT: vault holds 'pwned'
// NONE-GONE: attack returned 0 (dipc_errno 0)
// NONE-GONE-NEXT: vault holds '' (dipc_errno 14)
// NONE-RESET: attack returned 0 (dipc_errno 0)
// NONE-RESET-NEXT: vault holds 'vault-secret-42'
#define _GNU_SOURCE
#include "Inputs/victim-page.h"

#include <sys/mman.h>
#include <unistd.h>

enum { MAP_FIXED_OVER, UNMAP, DONTNEED, PROTECT, REMAP };

// No grant (the mode is a number: main's strings are not its to read):
// libc, on its own stack's buffers.
long attack(int mode, void *page) __dom("evil") __entry {
  if (mode == UNMAP)
    return munmap(page, 4096);
  if (mode == DONTNEED)
    return madvise(page, 4096, MADV_DONTNEED);
  if (mode == PROTECT)
    return mprotect(page, 4096, PROT_NONE);
  if (mode == REMAP) {
    void *to = (char *)page - 16 * 4096;
    return mremap(page, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED, to) ==
                   MAP_FAILED
               ? -1
               : 0;
  }
  char name[2] = {'x', 0}, text[8] = {'p', 'w', 'n', 'e', 'd', 0};
  int fd = memfd_create(name, 0);
  if (fd < 0 || write(fd, text, sizeof text) < 0 || ftruncate(fd, 4096) < 0)
    return -1000;
  void *r = mmap(page, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED,
                 fd, 0);
  close(fd);
  return r == MAP_FAILED ? -1 : 0;
}

int main(int argc, char **argv) {
  void *page = vault_page();
  vault_change();
  static const char *const modes[] = {"map-fixed", "munmap", "dontneed",
                                      "mprotect", "mremap"};
  int mode = 0;
  while (argc > 1 && mode < 4 && strcmp(argv[1], modes[mode]))
    ++mode;
  long r = attack(mode, page);
  int err = dipc_errno;
  printf("attack returned %ld (dipc_errno %d)\n", r, err);
  vault_holds();
  return 0;
}
