// sigaction's loader interceptor (loader/signals.c) read the caller's
// act->sa_handler several times: the check, whether a proxy into the
// caller's domain is made, whether the loader's front handler replaces
// it, and libc's sigaction read it again. A second thread of `evil` flips
// it between SIG_IGN and evil's handler: when the loader's reads saw
// SIG_IGN and libc's the function, the kernel got evil's handler raw, and
// it ran unproxied as whatever domain the signal interrupted -- here main,
// the default domain, holding a grant to vault (an attack round stole the
// secret after 452 to 825 tries). Now act is read once, under `sfi` into
// the thread's scratch area: every handler runs as evil, whose read of the
// secret is refused. Control: under `none` the handler reads it (no
// flipping there: on a loaded machine the flipper could sit in its SIG_IGN
// window at every sigaction, and the handler never ran in 3000 tries).
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 3000 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 3000 noflip 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI: 3000 tries; handler ran as domain [[EVIL:[0-9]+]], in domain [[EVIL]] each time
// SFI: nothing stolen
// STOLEN: stole 'vault-secret-42'
#define _GNU_SOURCE
#include <dipc.h>
#include <dipc/rt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char vault_secret[32] __dom("vault") = "vault-secret-42";
const char *vault_address(void) __dom("vault") __entry { return vault_secret; }

static const volatile char *target;
static char loot[32];
static volatile long handler_domain = -1, evil_domain = -1, other_runs;

static void on_usr1(int sig) {
  (void)sig;
  handler_domain = dipc_current_domain();
  other_runs += handler_domain != evil_domain;
  for (int i = 0; i < 31 && (i == 0 || target[i - 1]); ++i)
    loot[i] = target[i];
}

static struct sigaction act;
static volatile int armed, started;
static volatile long flips;

static void *flipper(void *arg) {
  (void)arg;
  for (;;) {
    if (!armed)
      continue;
    act.sa_handler = SIG_IGN;
    for (volatile int i = 0; i < 64; i++)
      ;
    act.sa_handler = on_usr1;
    flips++;
  }
  return NULL;
}

long install(int flip) __dom("evil") __entry __perm("default", write);
long install(int flip) {
  if (!started) {
    pthread_t t;
    started = 1;
    if (pthread_create(&t, NULL, flipper, NULL) != 0)
      return -1;
  }
  evil_domain = dipc_current_domain();
  memset(&act, 0, sizeof act);
  act.sa_handler = on_usr1;
  sigemptyset(&act.sa_mask);
  if (flip) {
    long seen = flips;
    armed = 1;
    while (flips == seen)
      ;
  }
  long r = sigaction(SIGUSR1, &act, NULL);
  armed = 0;
  return r;
}

int main(int argc, char **argv) {
  int tries = argc > 1 ? atoi(argv[1]) : 1000, i;
  int flip = !(argc > 2 && !strcmp(argv[2], "noflip"));
  dom_t vault = dipc_domain_named("vault");
  if (vault < 0 || grant_create(dom_default(), vault) < 0) {
    printf("no grant to vault\n");
    return 1;
  }
  target = vault_address();
  for (i = 0; i < tries && !loot[0]; ++i) {
    install(flip);
    raise(SIGUSR1);
  }
  printf("%d tries; handler ran as domain %ld, in domain %ld %s\n", i,
         handler_domain, other_runs ? -1L : evil_domain,
         other_runs ? "not each time" : "each time");
  if (loot[0])
    printf("stole '%s'\n", loot);
  else
    printf("nothing stolen\n");
  return 0;
}
