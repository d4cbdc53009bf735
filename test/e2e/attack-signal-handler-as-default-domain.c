// A signal handler runs as the domain that installed it, never as the
// default domain. The default domain holds a grant to vault (main asks for
// it: grant_create); domain `evil`, which has none, installs a handler for
// SIGUSR1 (`signal`, then `sigaction` with SA_SIGINFO) that copies vault's
// secret, and main raises the signal. The loader's handler used to run it
// as the default domain, grant included: it stole the secret under every
// backend. Now it runs through a proxy into evil: its read faults, and
// under `sfi` the handler's call ends there, nothing is stolen, the
// program goes on. Under `mpk` the fault's signal frame lands over the
// handler's on the alternate stack, which is not disarmed there
// (loader/signals.c): the process stops, nothing stolen either. The same
// handler installed by main (the default domain) reads the secret: the
// grant works, only evil's handler is refused. Control: `none`, where
// evil's handler steals it.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %if pku %{ not --crash %dipc-bin-dir/dipc-run --backend=mpk %t signal 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK %}
// RUN: %if pku %{ not --crash %dipc-bin-dir/dipc-run --backend=mpk %t sigaction 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK %}
// RUN: %dipc-bin-dir/dipc-run --backend=none %t signal 2>&1 | FileCheck %s --check-prefixes=CHECK,STOLEN
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi signal 2>&1 | FileCheck %s --check-prefixes=CHECK,SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi sigaction 2>&1 | FileCheck %s --check-prefixes=CHECK,SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi signal 2>&1 | FileCheck %s --check-prefixes=CHECK,STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi sigaction 2>&1 | FileCheck %s --check-prefixes=CHECK,STOLEN
// libc's other installers (bsd_signal, signal's other name; sysv_signal)
// reached its own sigaction past the loader's: now through it, under sfi.
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi bsd_signal 2>&1 | FileCheck %s --check-prefixes=CHECK,SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi sysv_signal 2>&1 | FileCheck %s --check-prefixes=CHECK,SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi bsd_signal 2>&1 | FileCheck %s --check-prefixes=CHECK,STOLEN
// CHECK: default domain reads 'vault-secret-42' through its grant
// CHECK: evil installed its handler: 0
// MPK-NOT: stole
// MPK: a signal handler returned inside a cross-domain call it made
// SFI-NOT: stole
// SFI: evil's handler ran as domain [[EVIL:[0-9]+]], evil is [[EVIL]]
// SFI: nothing stolen
// SFI: main goes on
// STOLEN: stole 'vault-secret-42'
// STOLEN: main goes on
#define _GNU_SOURCE /* sysv_signal */
#include <dipc.h>
#include <dipc/rt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

/* signal's other name in libc, no longer declared by its headers */
sighandler_t bsd_signal(int sig, sighandler_t fn);

static char vault_secret[32] __dom("vault") = "vault-secret-42";
const char *vault_address(void) __dom("vault") __entry { return vault_secret; }

/* Default-domain memory, which evil may write (its grant below). */
static const volatile char *target;
static char loot[32];
static volatile long handler_domain = -1;

static void copy_secret(void) {
  handler_domain = dipc_current_domain();
  for (int i = 0; i < 31 && (i == 0 || target[i - 1]); ++i)
    loot[i] = target[i];
}

static void on_usr1(int sig) {
  (void)sig;
  copy_secret();
}

static void on_usr1_info(int sig, siginfo_t *info, void *uc) {
  (void)sig, (void)info, (void)uc;
  copy_secret();
}

long install(const char *how) __dom("evil") __entry __perm("default", write);
long install(const char *how) {
  if (strcmp(how, "signal") == 0)
    return signal(SIGUSR1, on_usr1) == SIG_ERR ? -1 : 0;
  if (strcmp(how, "bsd_signal") == 0)
    return bsd_signal(SIGUSR1, on_usr1) == SIG_ERR ? -1 : 0;
  if (strcmp(how, "sysv_signal") == 0)
    return sysv_signal(SIGUSR1, on_usr1) == SIG_ERR ? -1 : 0;
  struct sigaction act;
  memset(&act, 0, sizeof act);
  act.sa_sigaction = on_usr1_info;
  act.sa_flags = SA_SIGINFO;
  sigemptyset(&act.sa_mask);
  return sigaction(SIGUSR1, &act, NULL);
}

long whoami(void) __dom("evil") __entry __perm("default", write);
long whoami(void) { return dipc_current_domain(); }

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "signal";
  dom_t vault = dipc_domain_named("vault");
  if (vault < 0 || grant_create(dom_default(), vault) < 0) {
    printf("no grant to vault\n");
    return 1;
  }
  target = vault_address();

  /* The default domain's own handler: the grant is its to use. */
  signal(SIGUSR1, on_usr1);
  raise(SIGUSR1);
  printf("default domain reads '%s' through its grant\n", loot);
  memset(loot, 0, sizeof loot);

  long r = install(how);
  printf("evil installed its handler: %ld\n", r);
  fflush(stdout);
  raise(SIGUSR1);
  printf("evil's handler ran as domain %ld, evil is %ld\n", handler_domain,
         whoami());
  if (loot[0])
    printf("stole '%s'\n", loot);
  else
    printf("nothing stolen\n");
  printf("main goes on\n");
  return 0;
}
