/* vault-sum.h - for the attacks that write (vault.h): whether vault's
 * secret changed, as vault itself reads it (the default domain, which
 * runs main, may not read it under an enforcing backend). */
#include "vault.h"

unsigned vault_sum(void) __dom("vault") __entry {
  unsigned sum = 0;
  for (int i = 0; i < (int)sizeof vault_secret; ++i)
    sum = sum * 31 + (unsigned char)vault_secret[i];
  return sum;
}

/* Runs the attack in `mode`, then says whether vault's secret changed. */
static int run_write_attack(const char *mode, void *aux) {
  unsigned before = vault_sum();
  run_attack(mode, aux);
  printf("vault's secret %s\n", before != vault_sum() ? "changed" : "unchanged");
  return 0;
}
