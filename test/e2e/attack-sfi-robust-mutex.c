// Known open (docs/runtime.md, "What stays trusted under sfi"): glibc's
// robust-mutex unlink. A domain with no grant (`sneak`, attack round 15)
// marks a mutex of its own robust through its __kind word, locks it
// (glibc links it into the thread's robust list), rewrites its list links
// and unlocks: pthread_mutex_unlock's DEQUEUE writes `*(next - 8) = prev`,
// an address of sneak's choosing over vault's secret. The interceptors
// check the mutex object only; the kind and links are read again by
// glibc after any check, so a sound fix keeps the real mutex in runtime
// memory (a shadow per domain mutex), not built yet. Expected to fail
// until then; the none control shows the same write.
// XFAIL: *
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// SFI: after: vault intact
// NONE: after: vault CHANGED
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
  char view[17];
  char *s = (char *)vault_address();
  printf("before: vault %s '%s'\n", vault_show(view) ? "intact" : "CHANGED", view);
  long r = sneak(s, argc > 1);
  printf("sneak returned %ld, dipc_errno %d\n", r, dipc_errno);
  printf("after: vault %s '%s'\n", vault_show(view) ? "intact" : "CHANGED", view);
  uintptr_t w = vault_word0();
  printf("secret word 0 = %#lx (sneak's landing+8 = %p)\n", (unsigned long)w, (void *)&landing[1]);
  return 0;
}
