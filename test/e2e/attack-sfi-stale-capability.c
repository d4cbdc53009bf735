// A capability outliving its pages (attack round 19): under `sfi` a
// capability register is an access right the checks honour. Domain
// `evil`, with no grant, made one over the data mirror of its callee stack
// on a worker thread (its own memory); the worker ended, its mirror went,
// and vault's callee stack of a new worker (and so its mirror, where
// vault's indexed locals live) came at the same address: the capability
// read vault's secret there and wrote over it. A capability now covers
// its pages only while they keep the tag they had when it was made
// (rt/cap.c, rt/sfi.c cap_covers). Control: under `none` evil steals.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t steal 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t write 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t write 2>&1 | FileCheck %s --check-prefix=NONE
// SFI: evil_cap: 1048576 (dipc_errno 0)
// SFI: nothing stolen
// SFI-NOT: EVIL
// NONE: stole 'vault-secret-42'
// NONE: vault sees its copy as 'EVILt-secret-42'
// Stale capability over a data mirror: `evil` (no grant) makes a
// capability register on the main thread over the data mirror of its own
// callee stack of worker thread B (the runtime counts it as evil's:
// rt/owned.c dipc_stack_owner). B exits: the mirror is unmapped and
// re-tagged, but the capability stays in main's registers. Worker C then
// calls vault, whose callee stack (and mirror) the kernel places at the
// same address; vault's locals land in the mirror; evil, called again on
// main, reads them through its stale capability.
#define _GNU_SOURCE
#include <dipc.h>
#include <dipc/rt.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define DELTA 0x200000000000ull

static char vault_secret[32] __dom("vault") = "vault-secret-42";
static volatile int vault_idx __dom("vault");

/* vault copies its secret into a local it indexes (so into the mirror). */
long vault_work(void) __dom("vault") __entry;
long vault_work(void) {
  volatile char buf[64];
  long sum = 0;
  for (int i = 0; i < 32; ++i)
    buf[i + vault_idx] = vault_secret[i];
  for (int i = 0; i < 32; ++i)
    sum += buf[i + vault_idx];
  return sum ? (long)__builtin_frame_address(0) : 0;
}

/* vault reads its own memory at addr (its mirror on C). */
long vault_peek_at(uintptr_t addr, char *out) __dom("vault") __entry;
long vault_peek_at(uintptr_t addr, char *out) {
  char tmp[16];
  for (int i = 0; i < 15; ++i)
    tmp[i] = ((const volatile char *)addr)[i];
  tmp[15] = 0;
  for (int i = 0; i < 16; ++i)
    out[i] = tmp[i];
  return 0;
}
static volatile uintptr_t peek_addr;
static uintptr_t evil_fa __dom("evil");
static uintptr_t evil_delta __dom("evil");
static int evil_perm __dom("evil") = DIPC_PERM_READ;
static int evil_write __dom("evil");
static uint64_t evil_base __dom("evil"), evil_size __dom("evil");

/* On thread B: where evil's callee stack frame is. */
long evil_on_b(long sfi) __dom("evil") __entry;
long evil_on_b(long sfi) {
  evil_fa = (uintptr_t)__builtin_frame_address(0);
  evil_delta = sfi ? DELTA : 0;
  return (long)evil_fa;
}

/* On main while B lives: capability over [fa page - 1 MiB, top of B's
 * evil stack) in its mirror; returns its size or the error. */
long evil_cap(long w) __dom("evil") __entry;
long evil_cap(long w) {
  if (w) { evil_perm = DIPC_PERM_WRITE; evil_write = 1; }
  uintptr_t top = (evil_fa & ~4095ul) + 4096;
  uintptr_t base = top - (1ul << 20) - evil_delta;
  long best = -1;
  for (int k = 0; k < 64; ++k) {
    int r = dipc_cap_create(0, (const void *)base,
                            (1ul << 20) + (uintptr_t)k * 4096, evil_perm);
    if (r != 0)
      break;
    best = (1l << 20) + k * 4096l;
  }
  evil_base = base; evil_size = best;
  if (best > 0)
    dipc_cap_create(0, (const void *)base, (size_t)best, evil_perm);
  return best;
}

void evil_drop(void) __dom("evil") __entry;
void evil_drop(void) { dipc_cap_revoke(0); }

/* Later, on main: scan the capability's range for the secret. */
long evil_read(char *loot) __dom("evil") __entry;
long evil_read(char *loot) {
  struct { uint64_t base, size; } c = {evil_base, evil_size};
  const volatile char *p = (const volatile char *)c.base;
  for (uint64_t i = 0; i + 16 < c.size; ++i)
    if (p[i] == 'v' && p[i + 1] == 'a' && p[i + 2] == 'u' && p[i + 3] == 'l' &&
        p[i + 4] == 't' && p[i + 5] == '-') {
      for (int j = 0; j < 31 && p[i + j]; ++j)
        loot[j] = p[i + j];
      if (evil_write) {
        volatile char *q = (volatile char *)(c.base + i);
        q[0] = 'E'; q[1] = 'V'; q[2] = 'I'; q[3] = 'L';
      }
      return (long)(c.base + i);
    }
  return -2;
}

static volatile int stage;
static int sfi_mode;

static void *thread_b(void *arg) {
  (void)arg;
  long fa = evil_on_b(sfi_mode);
  printf("B: evil frame at %#lx\n", fa);
  __atomic_store_n(&stage, 1, __ATOMIC_SEQ_CST); /* B's frame known */
  while (__atomic_load_n(&stage, __ATOMIC_SEQ_CST) != 2) ; /* cap made */
  return NULL;
}

static void *thread_c(void *arg) {
  (void)arg;
  long s = vault_work();
  printf("C: vault frame at %#lx\n", s);
  fflush(stdout);
  __atomic_store_n(&stage, 3, __ATOMIC_SEQ_CST);
  while (__atomic_load_n(&stage, __ATOMIC_SEQ_CST) != 4) ; /* C stays, as a worker would */
  if (peek_addr) {
    char peek_out[16] = "";
    vault_peek_at(peek_addr, peek_out);
    printf("C: vault sees its copy as '%s' (dipc_errno %d)\n", peek_out, dipc_errno);
  }
  return NULL;
}

int main(int argc, char **argv) {
  int nocap = argc > 1 && strcmp(argv[1], "nocap") == 0;
  sfi_mode = strcmp(dipc_backend(), "sfi") == 0;
  pthread_t b, c;
  pthread_create(&b, NULL, thread_b, NULL);
  while (__atomic_load_n(&stage, __ATOMIC_SEQ_CST) != 1) ;
  int wr = argc > 1 && strcmp(argv[1], "write") == 0;
  long cap = evil_cap(wr);
  if (nocap)
    evil_drop();
  printf("evil_cap: %ld (dipc_errno %d)\n", cap, dipc_errno);
  __atomic_store_n(&stage, 2, __ATOMIC_SEQ_CST);
  pthread_join(b, NULL);
  /* B's slot (and so its callee stacks' addresses) is given to a new
   * thread once the kernel has let go of B, which can trail the join: in
   * the QEMU guest C got a slot of its own now and then, and under `none`
   * the control found nothing at B's address. */
  usleep(300000);
  pthread_create(&c, NULL, thread_c, NULL);
  while (__atomic_load_n(&stage, __ATOMIC_SEQ_CST) != 3) ;
  char loot[32] = "";
  long r = evil_read(loot);
  printf("evil_read returned %#lx, dipc_errno %d\n", r, dipc_errno);
  printf(loot[0] ? "stole '%s'\n" : "nothing stolen%s\n", loot);
  if (r > 0)
    peek_addr = (uintptr_t)r;
  __atomic_store_n(&stage, 4, __ATOMIC_SEQ_CST);
  pthread_join(c, NULL);
  return 0;
}
