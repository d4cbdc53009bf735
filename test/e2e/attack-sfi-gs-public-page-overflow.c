// A load or store at a constant %gs offset in the thread's public page
// (dipc/abi.h) is the one segment access `-fdipc-sfi` leaves unchecked:
// every domain may write that page. An attack round's `evil` made it a
// 128-byte vector access at its end, gs:0x3ffc0, which reaches the next
// thread slot's trusted state (slots are adjacent): it set that thread's
// running domain (+40, which the compiled-in checks read) to vault's, and
// its other thread, spinning in evil's code, read vault's secret with
// ordinary checked code. Now the exception holds only for an access wholly
// inside the page: the pass refuses this program. Control: built with
// -fdipc alone and run under `none`, the same program steals the secret.
// RUN: not %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lpthread 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: %dipc-clang -fdipc -O2 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=none %t write 2>&1 | FileCheck %s --check-prefix=NONE
// REFUSED: error: dipc: -fdipc-sfi cannot check 'attack': it accesses memory through address space 256
// NONE: thread B returned 1
// NONE-NEXT: stole 'vault-secret-42'
#include "Inputs/vault.h"

#include <pthread.h>
#include <sched.h>

long vault_id(void) __dom("vault") __entry { return dipc_current_domain(); }

typedef uint64_t v16 __attribute__((vector_size(128), aligned(16)));

static volatile int go __dom("evil");
static volatile int ready __dom("evil");
static volatile int done __dom("evil");
static char loot2[32] __dom("evil");

/* Thread B, in evil: waits until its running domain was rewritten, then
 * reads the secret with ordinary (checked) code. */
long evil_spin(const volatile char *secret) __dom("evil") __entry;
long evil_spin(const volatile char *secret) {
  ready = 1;
  while (!go)
    ;
  take(secret, loot2);
  done = 1;
  while (go != 2)
    ;
  return 1;
}

static volatile int bdone;
struct targ { const volatile char *secret; long r; };
static void *thread_b(void *p) {
  struct targ *t = p;
  t->r = evil_spin(t->secret);
  bdone = 1;
  return NULL;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  long vid = (long)aux;
  while (!ready)
    sched_yield();
  volatile v16 __seg_gs *p = (volatile v16 __seg_gs *)0x3ffc0;
  v16 v = *p; /* lanes 8.. = next slot: self, fsbase, kcs_top, limit, base, cur_dom|pkru */
  printf("evil: next slot self=%#lx fsbase=%#lx cur_dom=%lu\n", (unsigned long)v[8],
         (unsigned long)v[9], (unsigned long)(v[13] & 0xffffffff));
  if (mode[0] == 'w') {
    uint64_t old = v[13];
    v[13] = (old & ~0xffffffffull) | (uint64_t)vid;
    *p = v;
    go = 1;
    while (!done && !bdone)
      sched_yield();
    v = *p;
    v[13] = old; /* put thread B's domain back before it returns */
    *p = v;
  } else {
    go = 1;
    while (!done && !bdone)
      sched_yield();
  }
  go = 2;
  memcpy(loot, loot2, sizeof loot2);
  return 0;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  long vid = vault_id();
  pthread_t t;
  struct targ ta;
  ta.secret = vault_address();
  pthread_create(&t, NULL, thread_b, &ta);
  char loot[32] = "";
  long r = attack(argc > 1 ? argv[1] : "write", (void *)vid, ta.secret, 0, loot);
  printf("attack returned %ld, dipc_errno %d\n", r, dipc_errno);
  if (r < 0 || dipc_errno) return 1; /* blocked: thread B still spins */
  pthread_join(t, NULL);
  printf("attack returned %ld, dipc_errno %d, thread B returned %ld\n",
         r, dipc_errno, ta.r);
  printf(loot[0] ? "stole '%s'\n" : "nothing stolen%s\n", loot);
  return 0;
}
