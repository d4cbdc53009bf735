// A %s string glibc reads again as it prints: the printf check measures
// and checks the string, then glibc prints from the pointer. `vault` has a
// page (dom_mmap) with a secret at its start, right above a page of the
// default domain's, where `evil` puts "AAA" and a NUL at the end, and a
// second thread of evil flips that NUL away for an instant while evil
// calls snprintf("%s"). A check that saw the NUL, then glibc printing
// past it, printed vault's secret (attack round 7's, then with a prefix
// it had written over vault's data page; here the loader of before this
// copy loses it within about ten tries). libc now prints a copy of each
// %s string, made after the check (loader/sfi_printf.c): some tries are
// refused (the check saw the flipped byte), none steals. `wide`: the same
// with "%ls" and a wide NUL flipped for a shorter instant, where the copy
// measured the string again after the check (attack round 8: stolen at
// the first try): it copies what it checks. Control: under `none` the
// same steals it.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t print 1000 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t print 1000 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t wide 300 2>&1 | FileCheck %s --check-prefix=SFI-WIDE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t wide 300 2>&1 | FileCheck %s --check-prefix=STOLEN-WIDE
// SFI: print: 1000 tries, 0 stolen
// STOLEN: print: {{[0-9]+}} tries, 1 stolen
// STOLEN: loot: 'AAAAvault-mapped-secret'
// SFI-WIDE: wide: 300 tries, 0 stolen
// STOLEN-WIDE: wide: {{[0-9]+}} tries, 1 stolen
// STOLEN-WIDE: loot: 'ABvault-mapped-secret'

#include "Inputs/vault.h"

#include "Inputs/flipper.h"

#include <dipc/rt.h>
#include <sys/mman.h>
#include <wchar.h>

#define PAGE 4096

/* vault's page (dom_mmap: main maps it for vault), its secret first: a
 * string, or a wide one. */
long vault_fill(char *page, long wide) __dom("vault") __entry {
  static const char secret[] = "vault-mapped-secret";
  for (size_t i = 0; i < sizeof secret; i++)
    if (wide)
      ((wchar_t *)page)[i] = (unsigned char)secret[i];
    else
      page[i] = secret[i];
  return 1;
}

/* A page of the default domain's right below a page of vault's, made by
 * main: the lower one's address, 0 on failure. */
static uintptr_t vault_map(long wide) {
  char *two = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  dom_t vault = dipc_domain_named("vault");
  if (two == MAP_FAILED || vault < 0 || munmap(two + PAGE, PAGE))
    return 0;
  void *page = dom_mmap(vault, two + PAGE, PAGE, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page != two + PAGE || vault_fill(page, wide) != 1)
    return 0;
  return (uintptr_t)two;
}

/* wide: L"A" and a wide NUL at the end of the page below vault's, whose
 * secret is wide in this mode. */
static long wide_race(char *below, char *loot) {
  wchar_t *s = (wchar_t *)(below + PAGE - 8);
  s[0] = L'A';
  s[1] = 0;
  flip_spins = 4; /* the gap between a check and a copy is short */
  arm_word(s, 'A' | ((uintptr_t)'B' << 32), 'A');
  char out[64] = "";
  for (int i = 0; i < 4000 && !strstr(out, "vault"); i++)
    snprintf(out, sizeof out, "%ls", s);
  disarm();
  flip_spins = 64;
  s[1] = 0;
  if (!strstr(out, "vault"))
    return 0;
  strncpy(loot, out, 31);
  return 1;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key, (void)secret;
  if (strcmp(mode, "print") && strcmp(mode, "wide"))
    return -1;
  char *below = aux; /* the default domain's, which evil may write */
  if (start_flipper())
    return -1;
  if (!strcmp(mode, "wide"))
    return wide_race(below, loot);
  char *s = below + PAGE - 4;
  memcpy(s, "AAA", 4);
  arm_byte(&s[3], 'A', 0); /* NUL held, 'A' for an instant */
  char out[64] = "";
  for (int i = 0; i < 16 && !strstr(out, "vault"); i++)
    snprintf(out, sizeof out, "%s", s);
  disarm();
  s[3] = '\0';
  if (!strstr(out, "vault"))
    return 0;
  strncpy(loot, out, 31);
  return 1;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  uintptr_t v = vault_map(!strcmp(mode, "wide"));
  if (!v) {
    printf("could not place vault's page\n");
    return 1;
  }
  int tries = argc > 2 ? atoi(argv[2]) : 1000, made = 0, stolen = 0,
      refused = 0;
  char loot[32] = "";
  while (made < tries && !stolen) {
    long r = attack(mode, (void *)v, NULL, 0, loot);
    int err = dipc_errno;
    made++;
    if (r < 0 && err == 0) {
      printf("%s: could not run\n", mode);
      return 1;
    }
    stolen += r == 1;
    refused += r == 0 && err == DIPC_EFAULT;
  }
  printf("%s: %d tries, %d stolen, %d refused\n", mode, made, stolen, refused);
  if (stolen)
    printf("first stolen at try %d, loot: '%s'\n", made, loot);
  return 0;
}
