// pthread_setspecific was let through unchecked, as taking a handle. But
// a key's destructor gets whatever value is set: the loader keeps each
// thread's alternate-signal-stack record under a key of its own, whose
// destructor writes the record's link. An attack round's domain `sneak`,
// with no grant at all, set that key (key 1 at this layout) to vault's
// secret on its thread, and as the thread ended the loader wrote over
// the secret (and later took it as a record to reuse). Under `sfi` a
// named domain sets and deletes only keys it made (loader/sfi_callbacks.c):
// EPERM, the reason on stderr, vault intact. Control: under `none` the
// loader writes over the secret.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 1 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 1 2>&1 | FileCheck %s --check-prefix=NONE
// SFI: dipc: sfi: pthread_setspecific of another domain's key refused
// SFI: before: vault intact
// SFI: after:  vault intact
// SFI: next:   vault intact
// NONE: before: vault intact
// NONE: after:  vault CHANGED
#include "Inputs/vault.h"

#include <pthread.h>

int vault_show(char *out) __dom("vault") __entry;
int vault_show(char *out) {
  for (int i = 0; i < 16; i++) {
    unsigned char c = (unsigned char)vault_secret[i];
    out[i] = c >= 32 && c < 127 ? (char)c : '.';
  }
  out[16] = 0;
  return strcmp(vault_secret, "vault-secret-42") == 0;
}

long sneak(const char *secret, unsigned key) __dom("sneak") __entry;
long sneak(const char *secret, unsigned key) {
  if (key == ~0u) return *(volatile char *)secret = 0; // control: direct write
  return pthread_setspecific((pthread_key_t)key, secret);
}

static const char *target;
static unsigned the_key;
static void *thread(void *arg) {
  (void)arg;
  long r = sneak(target, the_key);
  printf("sneak (in thread) returned %ld, dipc_errno %d\n", r, dipc_errno);
  return NULL;
}

int main(int argc, char **argv) {
  char view[17];
  target = vault_address();
  the_key = argc > 1 ? (unsigned)strtol(argv[1], NULL, 0) : 0;
  printf("before: vault %s '%s'\n", vault_show(view) ? "intact" : "CHANGED", view);
  pthread_t t;
  pthread_create(&t, NULL, thread, NULL);
  pthread_join(t, NULL);
  printf("after:  vault %s '%s'\n", vault_show(view) ? "intact" : "CHANGED", view);
  // next thread: the loader takes vault's secret as a retired record
  // (its tid word names no thread), writes the new tid at secret+8 and
  // arms secret+4096 as that thread's alternate signal stack.
  the_key = 999; // sneak's call fails harmlessly (EINVAL)
  pthread_create(&t, NULL, thread, NULL);
  pthread_join(t, NULL);
  printf("next:   vault %s '%s'\n", vault_show(view) ? "intact" : "CHANGED", view);
  return 0;
}
