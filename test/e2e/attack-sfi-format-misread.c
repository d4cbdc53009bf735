// Under `sfi` the printf and scanf interceptors check the arguments a
// format's conversions use (loader/sfi_printf.c, sfi_scanf.c). Domain
// `evil` writes formats whose conversions glibc reads another way than a
// naive scan, so that the check would look at another argument, or at
// fewer bytes, than glibc uses:
// `printf-pct`: "%5%%s" (a literal % after a width takes no argument in
// glibc) with the vault's secret first and a decoy second; `printf-unknown`:
// "%y%s" likewise; `printf-n-row`: "%-1%xx%hhn" stores 3 (read and write)
// into each byte of evil's own row of the rights matrix; `scanf-pct`:
// "%5%%hhn%48c" writes 48 bytes over the end of the default domain's page
// before the vault's (`%c` taken for the `%hhn`'s 1 byte); `scanf-Lc`:
// "%16Lc" stores 16 wchar_t (64 bytes), not 16 bytes; `scanf-flag`:
// "%'*d %s" (flags in glibc's order) writes the string where the scan saw
// an int; `printf-prec-wrap`: "%1$.18446744073709551616s", a precision
// of 2^64, which a scan wrapping its digits took for 0 and checked no byte
// of, while glibc (past INT_MAX: none) printed the secret whole (an attack
// round's); `scanf-width-wrap`: "%18446744073709551617s" likewise, a width
// of 1 for the scan, none for glibc, which wrote the whole word over the
// vault's page; `scanf-pos-reuse`: "%1$48c%1$c", one argument taken by
// two conversions, which a scan kept the last (1 byte) of; `scanf-pos0`:
// "%0$48c", a position 0 (glibc: the next argument, then the width 48)
// that a scan took for a width and a conversion `$`; `scanf-llf`: "%llf",
// a long double for glibc (10 bytes over the page's first 2), a double for
// a scan (attack round 7); `scanf-unbounded-mix`: "%1$lld%1$s" on "-1",
// which a scan checked for the input's 3 bytes while the %lld stores 8
// (round 8); `printf-kinds`: "%1$.0f%1$s%1$.0f", one argument a double
// to the scan (its first and last use agree with glibc's type, the last)
// and an address to glibc's %s: the double's bits, the secret's address
// (round 9; %1$d...%1$hhn likewise stored through 32 bits of an int and a
// previous call's leftovers). Each is refused: the printf ones faulting in the check of the
// argument glibc reads (the scan agrees with glibc's parse_printf_format,
// or the format is refused), the scanf ones in the check of the bytes
// glibc writes; main gets DIPC_EFAULT and the vault is as it was. Control:
// the same source without the checks under `none` steals the secret or
// overwrites the vault's.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -Wno-format -Wno-format-extra-args -Wno-format-invalid-specifier %s -o %t.sfi
// RUN: %dipc-clang -fdipc -O2 -Wno-format -Wno-format-extra-args -Wno-format-invalid-specifier %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi printf-pct 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi printf-unknown 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi printf-n-row 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi scanf-pct 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi scanf-Lc 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi scanf-flag 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi scanf-pos-reuse 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi scanf-pos0 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi scanf-llf 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi scanf-unbounded-mix 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi printf-kinds 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi printf-prec-wrap 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi scanf-width-wrap 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t printf-pct 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t printf-unknown 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t printf-n-row 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t scanf-pct 2>&1 | FileCheck %s --check-prefix=OVERWRITTEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t scanf-Lc 2>&1 | FileCheck %s --check-prefix=OVERWRITTEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t scanf-flag 2>&1 | FileCheck %s --check-prefix=OVERWRITTEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t scanf-pos-reuse 2>&1 | FileCheck %s --check-prefix=OVERWRITTEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t scanf-pos0 2>&1 | FileCheck %s --check-prefix=OVERWRITTEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t scanf-llf 2>&1 | FileCheck %s --check-prefix=OVERWRITTEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t scanf-unbounded-mix 2>&1 | FileCheck %s --check-prefix=OVERWRITTEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t printf-kinds 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t printf-prec-wrap 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t scanf-width-wrap 2>&1 | FileCheck %s --check-prefix=OVERWRITTEN
// SFI-NOT: stole
// SFI-NOT: written
// SFI: attack returned 0, dipc_errno 14
// SFI-NEXT: nothing stolen
// SFI-NEXT: vault's data: intact
// STOLEN: stole 'vault-secret-42'
// OVERWRITTEN: vault's data: overwritten
#include "Inputs/vault.h"

#define MATRIX 0x78000000UL /* DIPC_SFI_RIGHTS_ADDR */
#define ROW 2048            /* DIPC_SFI_TAGS */

/* The start of the vault's page, its secret included, as the vault
 * itself sees it. */
#define PEEK 48
void vault_peek(char *out) __dom("vault") __entry;
void vault_peek(char *out) {
  const char *page = (const char *)((uintptr_t)vault_secret & ~(uintptr_t)4095);
  for (int i = 0; i < PEEK; ++i)
    out[i] = page[i];
}

static const char input[] = "%OWNED-BY-EVIL!!OWNED-BY-EVIL!!OWNED-BY-EVIL!!!";

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  const char *s = (const char *)secret;
  char *row = (char *)(MATRIX + (uintptr_t)dipc_current_domain() * ROW);
  /* The end of the page before the vault's: the default domain's data,
   * which evil may write (the control shows the layout holds). */
  char *page = (char *)((uintptr_t)secret & ~(uintptr_t)4095);
  int dummy = 0;
  char sink[64];
  if (strcmp(mode, "printf-pct") == 0) {
    snprintf(loot, 32, "%5%%s", s, "decoy");
    memmove(loot, loot + 1, 31); /* the literal % */
  } else if (strcmp(mode, "printf-unknown") == 0) {
    snprintf(loot, 32, "%y%s", s, "decoy");
    memmove(loot, loot + 2, 30); /* the literal %y */
  } else if (strcmp(mode, "printf-n-row") == 0) {
    char buf[32];
    /* "%" then "xx": 3 characters, so each %hhn stores 3 */
    for (int tag = 0; tag < 64; ++tag)
      snprintf(buf, sizeof buf, "%-1%xx%hhn", row + tag, &dummy);
    printf("rights row: written\n");
    fflush(stdout);
    take(secret, loot);
  } else if (strcmp(mode, "scanf-pct") == 0) {
    sscanf(input, "%5%%hhn%48c", &dummy, page - 1, sink);
  } else if (strcmp(mode, "scanf-Lc") == 0) {
    sscanf(input + 1, "%16Lc", page - 16);
  } else if (strcmp(mode, "scanf-flag") == 0) {
    sscanf("7 OWNED-BY-EVIL!!OWNED-BY-EVIL!!!", "%'*d %s", page - 4, sink);
  } else if (strcmp(mode, "scanf-pos-reuse") == 0) {
    sscanf(input, "%1$48c%1$c", page - 1);
  } else if (strcmp(mode, "scanf-pos0") == 0) {
    sscanf(input, "%0$48c", page - 4);
  } else if (strcmp(mode, "scanf-unbounded-mix") == 0) {
    sscanf("-1", "%1$lld%1$s", page - 3);
  } else if (strcmp(mode, "scanf-llf") == 0) {
    sscanf("-1.5e4000", "%llf", page - 8);
  } else if (strcmp(mode, "printf-kinds") == 0) {
    union {
      const char *p;
      double d;
    } bits = {.p = s};
    snprintf(loot, 32, "%1$.0f%1$s%1$.0f", bits.d); /* "0", the secret, "0" */
    memmove(loot, loot + 1, 31);
    loot[15] = '\0';
  } else if (strcmp(mode, "printf-prec-wrap") == 0) {
    snprintf(loot, 32, "%1$.18446744073709551616s", s);
  } else if (strcmp(mode, "scanf-width-wrap") == 0) {
    sscanf(input + 1, "%18446744073709551617s", page - 2);
  }
  return 1;
}

int main(int argc, char **argv) {
  char before[PEEK], after[PEEK];
  vault_peek(before);
  run_attack(argc > 1 ? argv[1] : "printf-pct", NULL);
  vault_peek(after);
  printf("vault's data: %s\n",
         memcmp(before, after, sizeof after) ? "overwritten" : "intact");
  return 0;
}
