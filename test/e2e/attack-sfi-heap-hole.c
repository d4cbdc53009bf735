// The loader's allocator writes a domain's heap region unchecked
// (loader/heap_alloc.c), trusting that all of it is the domain's. A hole
// the domain makes in it (munmap, mremap elsewhere, a file mapped over
// it) could be mapped again by another domain, whose memory the
// allocator would then write (an attack round's lead). Under `sfi` a
// domain's munmap, mremap (which moves pages: refused anywhere) and fixed
// mmap of its heap region are refused;
// mprotect and madvise of its own pages stay allowed. Control: under
// `none` each is done.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// SFI: dipc: sfi: munmap of a domain heap (the allocator's) refused to the running domain
// SFI: dipc: sfi: mremap that moves, grows or maps memory again refused to the running domain
// SFI: dipc: sfi: mmap over a domain heap (the allocator's) refused to the running domain
// SFI: munmap refused, mremap refused, mmap refused, mprotect done, madvise done
// NONE: munmap done, mremap moved, mmap placed, mprotect done, madvise done
#define _GNU_SOURCE
#include <dipc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define PAGE 4096

static char *page_in(char *block) {
  return (char *)(((uintptr_t)block + PAGE - 1) & ~(uintptr_t)(PAGE - 1));
}

/* What mal got done: bit 0 munmap, 1 mremap, 2 mmap, 3 mprotect, 4
 * madvise (it may not write stdout, the default domain's). */
long holes(void) __dom("mal") __entry __perm("default", read) {
  char *a = malloc(8 * PAGE), *b = malloc(8 * PAGE), *c = malloc(8 * PAGE),
       *d = malloc(8 * PAGE);
  if (!a || !b || !c || !d)
    return -1;
  long done = 0;
  done |= (munmap(page_in(a), PAGE) == 0) << 0;
  done |= (mremap(page_in(b), PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED,
                  (void *)0x100000000000ull) != MAP_FAILED)
          << 1;
  done |= (mmap(page_in(c), PAGE, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED)
          << 2;
  done |= (mprotect(page_in(d), PAGE, PROT_READ | PROT_WRITE) == 0) << 3;
  done |= (madvise(page_in(d), PAGE, MADV_WILLNEED) == 0) << 4;
  return done;
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  long done = holes();
  if (done < 0)
    return 1;
  printf("munmap %s, mremap %s, mmap %s, mprotect %s, madvise %s\n",
         done & 1 ? "done" : "refused", done & 2 ? "moved" : "refused",
         done & 4 ? "placed" : "refused", done & 8 ? "done" : "refused",
         done & 16 ? "done" : "refused");
  return 0;
}
