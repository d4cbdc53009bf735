// Message catalogs (attack round 17): strerror translates its message
// through gettext, which loads the catalog and a character converter and
// keeps them, process-wide, in memory it mallocs: then the running
// domain's heap. Domain `zeta`, with no grant, set LC_MESSAGES and
// LANGUAGE (de), had strerror load libc's German catalog, and rewrote the
// catalog's record in its heap: strerror then copied vault's secret out
// (mode 0), or the converter wrote over it (mode 1). Under `sfi` a domain
// with a heap of its own gets strerror's untranslated message (the C
// locale's: loader/sfi_kernel.c), so nothing is loaded for it, and its
// heap holds no record. Needs libc-l10n (scripts/bootstrap.sh). Control:
// under `none` both work; mode 2 is zeta's direct read.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -I%S/Inputs %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 0 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 1 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 2 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 0 2>&1 | FileCheck %s --check-prefix=NONE-READ
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 1 2>&1 | FileCheck %s --check-prefix=NONE-WRITE
// SFI: nothing stolen
// SFI: vault's secret is now: vault-secret-42
// NONE-READ: stole 'vault-secret-42'
// NONE-WRITE: stole 'PWNED-by-zeta'
// NONE-WRITE-NOT: vault's secret is now: vault-secret-42
#include <dipc.h>
#include "vault.h"
#include <errno.h>
#include <locale.h>
#include <unistd.h>

struct conv { const char *enc; void *conv; char **conv_tab; };
struct ld {
  const char *data; int use_mmap; size_t mmap_size; int must_swap;
  void *malloced; unsigned nstrings; const void *orig_tab;
  const void *trans_tab; unsigned n_sysdep; const void *orig_sysdep;
  const void *trans_sysdep; unsigned hash_size; const unsigned *hash_tab;
  int must_swap_hash_tab; struct conv *conversions; size_t nconversions;
};
struct sd { size_t length; const char *pointer; };

static struct ld *find(char *m) {
  uintptr_t base = (uintptr_t)m & ~(uintptr_t)0xffff;
  for (uintptr_t p = base + 64; p + 208 <= base + 0x10000; p += 16) {
    struct ld *d = (struct ld *)p;
    if (d->use_mmap == 1 && d->mmap_size > 1000 && d->mmap_size < (1u << 24) &&
        d->nstrings > 10 && d->nstrings < 100000 && d->data &&
        (uintptr_t)d->orig_tab - (uintptr_t)d->data < d->mmap_size &&
        d->nconversions == 1 && d->conversions)
      return d;
  }
  return 0;
}

long zeta(const char *secret, char *loot, int mode) __dom("zeta") __entry;
long zeta(const char *secret, char *loot, int mode) {
  if (mode == 2) { take(secret, loot); return 2; } /* control: direct read */
  if (!setlocale(LC_MESSAGES, "C.UTF-8"))
    return -1;
  setenv("LANGUAGE", "de", 1);
  const char *first = strerror(ENOENT);
  char *m = malloc(200);
  struct ld *d = find(m);
  if (!d) {
    for (int i = 0; i < 30 && first[i]; i++) loot[i] = first[i];
    return -2;
  }
  static unsigned hash[3] = {1, 1, 1};
  static char msgid[] = "Operation not permitted";
  static struct sd orig = {sizeof msgid + 1, msgid};
  static struct sd trans;
  static char pw[] = "PWNED-by-zeta";
  trans.length = mode == 1 ? sizeof pw : 16;
  trans.pointer = mode == 1 ? pw : secret;
  if (mode == 1) { /* the conversion's intermediate buffer (UCS4) */
    char *cd = (char *)d->conversions[0].conv;
    *(const char **)(cd + 16) = secret;
    *(const char **)(cd + 24) = secret + 32;
  }
  d->nstrings = 0;
  d->n_sysdep = 1;
  d->orig_sysdep = &orig;
  d->trans_sysdep = &trans;
  d->hash_size = 3;
  d->hash_tab = hash;
  d->must_swap_hash_tab = 0;
  if (d->conversions[0].conv_tab && d->conversions[0].conv_tab != (char **)-1)
    d->conversions[0].conv_tab[0] = 0;
  const char *got = strerror(EPERM);
  for (int i = 0; i < 31 && got[i]; i++)
    loot[i] = got[i];
  return (long)d->nconversions;
}

static void vault_show(void) __dom("vault") __entry;
static void vault_show(void) {
  char m[40];
  int i = 0;
  for (; i < 32; i++)
    m[i] = vault_secret[i] >= 32 && vault_secret[i] < 127 ? vault_secret[i] : '.';
  m[i++] = '\n';
  write(1, "vault's secret is now: ", 23);
  write(1, m, i);
}

int main(int argc, char **argv) {
  int mode = argc > 1 ? atoi(argv[1]) : 0;
  const char *secret = vault_address();
  char loot[32] = "";
  printf("attacking (message catalog)\n");
  fflush(stdout);
  long r = zeta(secret, loot, mode);
  printf("zeta returned %ld, dipc_errno %d\n", r, dipc_errno);
  printf(loot[0] ? "stole '%s'\n" : "nothing stolen%s\n", loot);
  fflush(stdout);
  vault_show();
  return 0;
}
