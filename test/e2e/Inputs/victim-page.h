/* victim-page.h - domain vault of attack-replace-victim-memory.c and
 * attack-sfi-replace-victim-memory.c: a page of its own holding a secret,
 * which vault changes (vault_change) before the attack, so that a page
 * reset to the executable's bytes shows; main reads it back 8 bytes at a
 * time through vault's entry (vault_holds). */
#include <dipc.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static char vault_secret[4096] __attribute__((aligned(4096)))
__dom("vault") = "vault-secret-42";

void *vault_page(void) __dom("vault") __entry { return vault_secret; }

static const char vault_text[] __dom("vault") = "changed-by-vault";

void vault_change(void) __dom("vault") __entry {
  for (unsigned i = 0; i < sizeof vault_text; ++i)
    vault_secret[i] = vault_text[i];
}

// The i-th 8 bytes of the secret.
uint64_t vault_word(int i) __dom("vault") __entry {
  uint64_t w = 0;
  for (int k = 0; k < 8; ++k)
    w |= (uint64_t)(unsigned char)vault_secret[8 * i + k] << (8 * k);
  return w;
}

/* Prints what vault's page holds, or '' and dipc_errno if vault's read
 * faults (the page is gone). */
static void vault_holds(void) {
  char held[33] = "";
  int err = 0;
  for (int i = 0; i < 4 && !err; ++i) {
    uint64_t w = vault_word(i);
    err = dipc_errno;
    memcpy(held + 8 * i, &w, 8);
  }
  if (err)
    printf("vault holds '' (dipc_errno %d)\n", err);
  else
    printf("vault holds '%s'\n", held);
}
