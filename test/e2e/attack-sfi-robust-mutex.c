// glibc's robust-mutex unlink. A domain with no grant (`sneak`, attack
// round 15) marks a mutex of its own robust through its __kind word,
// locks it (glibc links it into the thread's robust list), rewrites its
// list links and unlocks: pthread_mutex_unlock's DEQUEUE wrote
// `*(next - 8) = prev`, an address of sneak's choosing, over vault's
// secret. Under `sfi` glibc works on a shadow of each mutex of
// instrumented code in runtime memory (loader/sfi_mutex.c): sneak's
// writes reach only its object, and the secret stays. Control: under
// `none` the same write lands. Mode `works`: the mutexes still do their
// job (two threads counting under one, recursive and error-checking
// types, trylock, destroy and init again).
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t works 2>&1 | FileCheck %s --check-prefix=WORKS
// RUN: %dipc-bin-dir/dipc-run --backend=none %t works 2>&1 | FileCheck %s --check-prefix=WORKS
// SFI: after: vault intact
// NONE: after: vault CHANGED
// WORKS: counted 200000 of 200000; recursive 0 0 0 0; errorcheck 0 35 0; trylock 16 0; again 0 0 0
#include "Inputs/vault.h"
#include <errno.h>
#include <pthread.h>

static pthread_mutex_t counting = PTHREAD_MUTEX_INITIALIZER;
static long counted;

static void *count(void *arg) {
  (void)arg;
  for (int i = 0; i < 100000; i++) {
    pthread_mutex_lock(&counting);
    counted++;
    pthread_mutex_unlock(&counting);
  }
  return NULL;
}

static int works(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, count, NULL);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  pthread_mutex_t r = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP, e, again;
  int r1 = pthread_mutex_lock(&r), r2 = pthread_mutex_lock(&r),
      r3 = pthread_mutex_unlock(&r), r4 = pthread_mutex_unlock(&r);
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&e, &a);
  int e1 = pthread_mutex_lock(&e), e2 = pthread_mutex_lock(&e),
      e3 = pthread_mutex_unlock(&e);
  pthread_mutex_lock(&counting);
  int t1 = pthread_mutex_trylock(&counting);
  pthread_mutex_unlock(&counting);
  int t2 = pthread_mutex_trylock(&counting);
  pthread_mutex_unlock(&counting);
  pthread_mutex_init(&again, NULL);
  pthread_mutex_lock(&again);
  pthread_mutex_unlock(&again);
  int a1 = pthread_mutex_destroy(&again), a2 = pthread_mutex_init(&again, NULL),
      a3 = pthread_mutex_lock(&again);
  printf("counted %ld of 200000; recursive %d %d %d %d; errorcheck %d %d %d; "
         "trylock %d %d; again %d %d %d\n",
         counted, r1, r2, r3, r4, e1, e2, e3, t1, t2, a1, a2, a3);
  return 0;
}
int vault_show(char *out) __dom("vault") __entry;
int vault_show(char *out) {
  for (int i = 0; i < 16; i++) {
    unsigned char c = (unsigned char)vault_secret[i];
    out[i] = c >= 32 && c < 127 ? (char)c : '.';
  }
  out[16] = 0;
  return strcmp(vault_secret, "vault-secret-42") == 0;
}

uintptr_t vault_word0(void) __dom("vault") __entry;
uintptr_t vault_word0(void) {
  uintptr_t w;
  memcpy(&w, vault_secret, 8);
  return w;
}

static pthread_mutex_t m __dom("sneak") = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t landing[4] __dom("sneak");

long sneak(char *secret, int control) __dom("sneak") __entry;
long sneak(char *secret, int control) {
  if (control) return *(volatile char *)secret = 0; // control: direct write
  m.__data.__kind = 16; // glibc internal PTHREAD_MUTEX_ROBUST_NORMAL_NP
  int r = pthread_mutex_lock(&m);
  if (r) return -r;
  m.__data.__list.__next = (void *)(secret + 8);  // *(secret) = prev
  m.__data.__list.__prev = (void *)&landing[1];  // *(&landing[1]) = next
  return pthread_mutex_unlock(&m);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "works") == 0)
    return works();
  char view[17];
  char *s = (char *)vault_address();
  printf("before: vault %s '%s'\n", vault_show(view) ? "intact" : "CHANGED", view);
  long r = sneak(s, 0);
  printf("sneak returned %ld, dipc_errno %d\n", r, dipc_errno);
  printf("after: vault %s '%s'\n", vault_show(view) ? "intact" : "CHANGED", view);
  uintptr_t w = vault_word0();
  printf("secret word 0 = %#lx (sneak's landing+8 = %p)\n", (unsigned long)w, (void *)&landing[1]);
  return 0;
}
