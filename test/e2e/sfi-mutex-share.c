// The mutex shadows' table is shared by the process (loader/sfi_mutex.c):
// an attack round's domain `zeta`, with no grant, made 65,536 mutexes and
// vault's next one could not be made (EAGAIN). A named domain holds at
// most a quarter of the table: zeta gets 16,384 and vault's lock works.
// Under `none` there are no shadows.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -I%S/Inputs %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// SFI: zeta made 16384 mutexes, dipc_errno 0
// SFI: vault's pthread_mutex_lock returned 0
// NONE: zeta made 65536 mutexes, dipc_errno 0
// NONE: vault's pthread_mutex_lock returned 0
#include "vault.h"
#include <errno.h>
#include <pthread.h>

static pthread_mutex_t vault_lock __dom("vault") = PTHREAD_MUTEX_INITIALIZER;

long zeta(void) __dom("zeta") __entry;
long zeta(void) {
  char *buf = malloc(65536 * 8 + 64);
  long ok = 0;
  for (long i = 0; i < 65536; i++)
    ok += pthread_mutex_init((pthread_mutex_t *)(buf + i * 8), NULL) == 0;
  return ok;
}

long vault_work(void) __dom("vault") __entry;
long vault_work(void) {
  int r = pthread_mutex_lock(&vault_lock);
  if (r == 0)
    pthread_mutex_unlock(&vault_lock);
  return r;
}

int main(void) {
  printf("zeta made %ld mutexes, dipc_errno %d\n", zeta(), dipc_errno);
  long r = vault_work();
  printf("vault's pthread_mutex_lock returned %ld%s\n", r, r == EAGAIN ? " (EAGAIN)" : "");
  return 0;
}
