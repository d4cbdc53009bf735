// The attacker is domain `lib` (read grant on the default domain, as libc
// callers need). The allocator of its heap keeps its free lists inside the
// heap, so lib rewrites the link of a block it freed to point at main's
// secret, hoping its second malloc hands out main's memory and the allocator
// (or lib) writes it. Under mpk the allocator runs with lib's own rights:
// its write to main's page faults, the call fails with DIPC_EFAULT and the
// secret is intact. Under `sfi` the allocator (not instrumented) checks
// every link it follows against the region and stops the call on this one
// ("the heap of domain 'lib' is corrupt"): the same outcome. Under `none`
// (negative control) main's secret is overwritten.
// RUN: %dipc-clang -fdipc -O0 %s -o %t0
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t0 2>&1 | FileCheck %s --check-prefix=MPK %}
// RUN: %dipc-bin-dir/dipc-run --backend=none %t0 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-clang -fdipc -O2 %s -o %t2
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t2 2>&1 | FileCheck %s --check-prefix=MPK %}
// RUN: %dipc-bin-dir/dipc-run --backend=none %t2 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t2.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t2.sfi 2>&1 | FileCheck %s --check-prefixes=SFI,MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t2.sfi 2>&1 | FileCheck %s --check-prefix=NONE
// SFI: dipc: the heap of domain 'lib' is corrupt
// MPK: malloc handed out main's memory: no, errno 14
// MPK-NEXT: main's secret: intact
// NONE: malloc handed out main's memory: yes, errno 0
// NONE-NEXT: main's secret: overwritten
#include <dipc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *volatile freed __dom("lib");
static char *volatile first __dom("lib");
static char *volatile second __dom("lib");

long lib_poison(uintptr_t target) __dom("lib") __entry __perm("default", read);
long lib_poison(uintptr_t target) {
  freed = malloc(24);
  free(freed);
  *(volatile uintptr_t *)freed = target; // the free list's link
  first = malloc(24);                     // the block freed above
  second = malloc(24);                    // whatever the link said
  second[0] = 'X';
  return (uintptr_t)second == target;
}

static char secret[32] = "main's secret";

int main(void) {
  long handed = lib_poison((uintptr_t)secret);
  int err = dipc_errno;
  printf("malloc handed out main's memory: %s, errno %d\n",
         handed ? "yes" : "no", err);
  printf("main's secret: %s\n",
         strcmp(secret, "main's secret") == 0 ? "intact" : "overwritten");
  return 0;
}
