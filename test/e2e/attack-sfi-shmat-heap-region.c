// The domains' heap regions (dipc/abi.h) are the loader's allocator's: a
// domain made later finds its heap at its slot's address and maps it with
// MAP_FIXED_NOREPLACE. Grantless `zeta` attaches a System V segment the
// program made (its plain unit, as for a peer process) at the heap
// address of domain slot 900, which no domain has yet; under `sfi` the
// loader's shmat now takes it back and refuses, as its mmap does for the
// heap regions (found by attack round 25, issue #15's session,
// 2026-11-27: the slot was taken, a later dom_create failed). Control:
// under `none` the segment stays there.
// RUN: %clang -O2 -c %S/Inputs/shm-plain.c -o %t.plain.o
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s %t.plain.o -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// SFI: dipc: {{.*}}shmat in the domain heaps' regions
// SFI: segment at domain 900's heap: no (dipc_errno 0)
// NONE: segment at domain 900's heap: yes (dipc_errno 0)
#include <dipc.h>
#include <dipc/abi.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/shm.h>

int shm_plain_make(long size);

static int zseg __dom("zeta");
static uintptr_t zat __dom("zeta");

long zeta_attach(long seg) __dom("zeta") __entry {
  zseg = (int)seg;
  void *want = (void *)(uintptr_t)DIPC_HEAP_REGION(900);
  void *p = shmat(zseg, want, 0);
  zat = (uintptr_t)p;
  return p == want;
}

int main(void) {
  int seg = shm_plain_make(4096);
  if (seg < 0) {
    puts("shmget failed");
    return 1;
  }
  long landed = zeta_attach(seg);
  printf("segment at domain 900's heap: %s (dipc_errno %d)\n",
         landed ? "yes" : "no", dipc_errno);
  return 0;
}
