// scandir's directory handle (attack round 18): glibc's opendir mallocs
// the DIR (its buffer, read position and size), and scandir calls the
// domain's filter while it lives: in the running domain's heap, where
// domain `zeta`, with no grant, had its filter move the position and
// size so that the next readdir returned an "entry" laid over vault's
// secret, which scandir copied into zeta's list. Under `sfi` scandir is
// refused to a domain with a heap of its own, as ftw and nftw are
// (loader/sfi_callbacks.c). Control: under `none` zeta steals.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -I%S/Inputs %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// SFI: dipc: sfi: scandir by a domain with a heap of its own refused
// SFI: nothing stolen
// SFI: vault's secret is now: vault-secret-42
// NONE: stole 'vault-secret-42'
#define _GNU_SOURCE
#include <dirent.h>
#include <dipc.h>
#define S 4096u
/* zeta's data: laid out just below vault's (by name, descending), with
 * one page (zeta's section end) in between */
static char pad[2 * S] __attribute__((aligned(4096))) __dom("zeta") = {1};
#include "vault.h"
#include <unistd.h>

struct fake_dir { int fd; int lock; size_t allocation, size, offset; long filepos; int errcode; };
static char *g_dp __dom("zeta");          /* the fake dirent's address */
static struct fake_dir *g_dir __dom("zeta");
static int g_calls __dom("zeta");

static int filt(const struct dirent *d) __dom("zeta");
static int filt(const struct dirent *d) {
  ++g_calls;
  if ((const char *)d == g_dp) { /* vault's bytes: keep them, read nothing */
    g_dir->offset = g_dir->size = 0; /* next readdir: getdents, end */
    return 1;
  }
  if (!g_dir) {
    /* d = DIR->data + offset (0 on the first entry); data at DIR + 48 */
    g_dir = (struct fake_dir *)((char *)d - 48);
    g_dir->offset = (size_t)(g_dp - (char *)d);
    g_dir->size = (size_t)-1;
  }
  return 0;
}

long zeta(const char *secret, char *loot, int lead) __dom("zeta") __entry;
long zeta(const char *secret, char *loot, int lead) {
  if (lead < 0) { take(secret, loot); return 2; } /* control: direct read */
  static char path[] = "."; /* ., .. and more: two entries at least */
  /* the fake dirent: d_ino (8), d_off (8), d_reclen (2), d_type, d_name;
   * its head lies in zeta's own memory just below vault's page */
  char *page = (char *)((uintptr_t)secret & ~(uintptr_t)4095);
  char *dp = page - 2 * S + S - 32; /* in pad's last page */
  if (dp < pad || dp + 32 > pad + sizeof pad)
    return -100;
  lead = (int)(secret - dp);
  g_dp = dp;
  *(unsigned long *)dp = 1;            /* d_ino */
  *(unsigned short *)(dp + 16) = (unsigned short)(lead + 32);   /* d_reclen */
  struct dirent **list = 0;
  int n = scandir(path, &list, filt, 0);
  if (n <= 0)
    return -200 + n;
  for (int i = 0; i < n; i++)
    if (((unsigned short *)list[i])[8] == lead + 32) {
      const char *got = (const char *)list[i] + lead;
      for (int j = 0; j < 31 && got[j]; j++) loot[j] = got[j];
    }
  return n;
}

static void vault_show(void) __dom("vault") __entry;
static void vault_show(void) {
  char m[40]; int i = 0;
  for (; i < 32; i++) m[i] = vault_secret[i] >= 32 && vault_secret[i] < 127 ? vault_secret[i] : '.';
  m[i++] = '\n';
  write(1, "vault's secret is now: ", 23); write(1, m, i);
}

int main(int argc, char **argv) {
  const char *secret = vault_address();
  char loot[32] = "";
  int lead = argc > 1 ? -1 : 40;
  printf("attacking (scandir DIR), secret at page offset %#lx\n", (unsigned long)((uintptr_t)secret & 4095));
  fflush(stdout);
  long r = zeta(secret, loot, lead);
  printf("zeta returned %ld, dipc_errno %d\n", r, dipc_errno);
  printf(loot[0] ? "stole '%s'\n" : "nothing stolen%s\n", loot);
  fflush(stdout);
  vault_show();
  return 0;
}
