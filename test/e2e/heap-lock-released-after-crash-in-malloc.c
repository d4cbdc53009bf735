// A call that dies inside its domain's allocator (here: lib broke its own
// free list, so malloc faults while it holds the heap's lock) is unwound,
// and the runtime releases the lock the dead call held: lib's next call
// allocates again (other size classes work; the broken list still faults).
// Before, the lock stayed held and the next malloc waited forever (cut
// here by a 2 s call time-out: DIPC_ETIMEDOUT).
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 %s -o %t.sj
// RUN: %dipc-bin-dir/dipc-run %t.sj 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sj 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 %s -o %t.try
// RUN: %dipc-bin-dir/dipc-run %t.try 2>&1 | FileCheck %s
// CHECK: malloc from a broken free list: 0, errno 14
// CHECK-NEXT: next call's mallocs: 100 of 100, errno 0
// CHECK-NEXT: broken list again: 0, errno 14
#include <dipc.h>
#include <dipc/rt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static char *volatile block __dom("lib");

long lib_break(void) __dom("lib") __entry __perm("default", read);
long lib_break(void) {
  block = malloc(24);
  free(block);
  *(volatile uintptr_t *)block = 0x10; // the free list's link
  block = malloc(24);                  // the freed block; the list: 0x10
  block = malloc(24);                  // faults reading 0x10's link
  return 1;
}

long lib_mallocs(void) __dom("lib") __entry __perm("default", read);
long lib_mallocs(void) {
  long ok = 0;
  for (int i = 0; i < 100; i++) {
    block = malloc(100 + i);
    ok += block != NULL;
    free(block);
  }
  return ok;
}

int main(void) {
  dipc_set_call_timeout(2000000000UL);
  long r = lib_break();
  int err = dipc_errno;
  printf("malloc from a broken free list: %ld, errno %d\n", r, err);
  r = lib_mallocs();
  err = dipc_errno;
  printf("next call's mallocs: %ld of 100, errno %d\n", r, err);
  r = lib_break();
  err = dipc_errno;
  printf("broken list again: %ld, errno %d\n", r, err);
  return 0;
}
