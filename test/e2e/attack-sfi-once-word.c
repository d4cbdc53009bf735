// pthread_once and C11's call_once write the once word (a compare-and-
// swap, then the done state), and the compiled-in check of a C library
// call's pointer argument tests only that its first byte may be read.
// `evil`, which may read vault's memory but not write it, passed the
// address of vault's secret (3 bytes in, where the word's two state bits
// are clear): libc wrote the done state over it (an attack round's idea,
// tried here). Under `sfi` the once word must be writable (loader/
// sfi_callbacks.c): the call faults and returns DIPC_EFAULT, the secret
// intact. Mode `own`: evil's own once flags run their function once each.
// Control: under `none` the secret is overwritten.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi pthread_once 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi call_once 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi pthread_once 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi call_once 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi own 2>&1 | FileCheck %s --check-prefix=OWN
// SFI: attack returned 0, dipc_errno 14
// SFI: vault's secret intact
// NONE: vault's secret overwritten
// OWN: own once flags: pthread_once ran 1 time(s), call_once 1 time(s)
// OWN: vault's secret intact
#include "Inputs/vault.h"

#include <pthread.h>
#include <threads.h>

int vault_intact(void) __dom("vault") __entry {
  return strcmp(vault_secret, "vault-secret-42") == 0;
}

// Gives evil read access to vault's memory (its APL), nothing more.
long evil_reads(const volatile char *p) __dom("evil") __entry
    __perm("vault", read);
long evil_reads(const volatile char *p) { return p[0]; }

static int runs_pthread, runs_c11;
static void once_pthread(void) { runs_pthread++; }
static void once_c11(void) { runs_c11++; }

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key, (void)loot;
  void *word = (void *)(uintptr_t)(secret + 3); /* 'l': state bits clear */
  if (strcmp(mode, "pthread_once") == 0)
    return pthread_once(word, once_pthread);
  if (strcmp(mode, "call_once") == 0) {
    call_once(word, once_c11);
    return 0;
  }
  static pthread_once_t own = PTHREAD_ONCE_INIT;
  static once_flag own_c11 = ONCE_FLAG_INIT;
  for (int i = 0; i < 2; i++) {
    pthread_once(&own, once_pthread);
    call_once(&own_c11, once_c11);
  }
  printf("own once flags: pthread_once ran %d time(s), call_once %d "
         "time(s)\n",
         runs_pthread, runs_c11);
  return 0;
}

int main(int argc, char **argv) {
  if (evil_reads(vault_address()) != 'v')
    return 1;
  run_attack(argc > 1 ? argv[1] : "pthread_once", NULL);
  printf("vault's secret %s\n", vault_intact() ? "intact" : "overwritten");
  return 0;
}
