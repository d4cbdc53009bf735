// dom_default() hands the owner handle of the default domain only to code
// running in the default domain; code running in a named domain gets a
// handle with the rights its APL already gives it on the default domain
// (`mallory`: read; `nobody`: nil), never more. With it, mallory's
// dom_remap of the default domain's pages (the victim's page, its thread's
// runtime state) is refused (EPERM: remap needs owner on both domains) and
// main still reads the victim: nothing moved. The refusals are the API's
// own checks and hold under sfi (-fdipc-sfi build) and under `none` too
// (the same output); the negative control is the runtime before the check,
// which gave mallory an owner handle: the remap moved the victim's page
// into mallory's domain and main's next read of it faulted under mpk.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s
// CHECK: main: dom_default() permission 4
// CHECK-NEXT: mallory: dom_default() permission 2
// CHECK-NEXT: nobody: dom_default() permission 0
// CHECK-NEXT: mallory: remap of the victim's page: error 1
// CHECK-NEXT: mallory: remap of its thread's state: error 1
// CHECK-NEXT: victim 42
#include <dipc.h>
#include <dipc/rt.h>
#include <stdio.h>
#include <sys/mman.h>

/* A page of its own, so that moving it takes nothing else along. */
static long victim[512] __attribute__((aligned(4096))) = {42};

typedef dom_t default_fn(void);
typedef dom_t copy_fn(dom_t, int);

/* The permission a handle carries: the highest dom_copy allows. */
static int perm_of(dom_t h, copy_fn *copy) __dom("nobody") {
  int p = DIPC_PERM_OWNER;
  while (p > DIPC_PERM_NIL && copy(h, p) < 0)
    p--;
  return p;
}

/* No grant at all: libdipc comes as pointers (no GOT access). */
long nobody_perm(default_fn *get, copy_fn *copy) __dom("nobody") __entry {
  return perm_of(get(), copy);
}

long mallory_perm(void) __dom("mallory") __entry __perm("default", read) {
  int p = DIPC_PERM_OWNER;
  dom_t h = dom_default();
  while (p > DIPC_PERM_NIL && dom_copy(h, p) < 0)
    p--;
  return p;
}

/* Moves [page, page + 4096) from the default domain to a new domain of
 * mallory's own. */
long mallory_remap(void *page) __dom("mallory") __entry
    __perm("default", read) {
  return dom_remap(dom_create(), dom_default(), page, 4096);
}

int main(void) {
  dom_t h = dom_default();
  int p = DIPC_PERM_OWNER;
  while (p > DIPC_PERM_NIL && dom_copy(h, p) < 0)
    p--;
  printf("main: dom_default() permission %d\n", p);
  printf("mallory: dom_default() permission %ld\n", mallory_perm());
  printf("nobody: dom_default() permission %ld\n",
         nobody_perm(dom_default, dom_copy));
  printf("mallory: remap of the victim's page: error %ld\n",
         -mallory_remap(victim));
  void *state = (void *)((uintptr_t)dipc_thread_state() & ~4095UL);
  printf("mallory: remap of its thread's state: error %ld\n",
         -mallory_remap(state));
  printf("victim %ld\n", victim[0]);
  return 0;
}
