// C library functions LLVM does not know get no compiled-in check of
// their pointers but one (not into a callee stack): an attack round's
// `evil` copied vault's secret with swab(secret, own, 30). The loader now
// checks swab, memfrob and strfry over their ranges
// (loader/sfi_misc.c): the read of the secret faults, DIPC_EFAULT to main;
// the same functions on evil's own memory work as under `none`
// (mode `own`). strftime's zone name (tm_zone, which %Z copies) is
// checked too: a later round pointed it at the secret (mode `strftime`).
// Control: under `none` both steal. (Other such functions
// stay open: docs/runtime.md, "What stays trusted under sfi".)
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi swab 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi swab 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi strftime 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi strftime 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi own 2>&1 | FileCheck %s --check-prefix=OWN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi own 2>&1 | FileCheck %s --check-prefix=OWN
// SFI: attack returned 0, dipc_errno 14
// SFI-NEXT: nothing stolen
// STOLEN: stole 'vault-secret-42'
// OWN: own: swab 'badc', memfrob twice 'abcd', strfry keeps 4 letters
// OWN: attack returned 1, dipc_errno 0
#define _GNU_SOURCE
#include "Inputs/vault.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

static char mine[32] __dom("evil");

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  if (!strcmp(mode, "own")) {
    char text[8] = "abcd";
    swab(text, mine, 4);
    mine[4] = 0;
    char frob[8] = "abcd";
    memfrob(frob, 4);
    memfrob(frob, 4);
    char fry[8] = "abcd";
    strfry(fry);
    printf("own: swab '%s', memfrob twice '%s', strfry keeps %zu letters\n",
           mine, frob, strspn(fry, "abcd"));
    return 1;
  }
  if (!strcmp(mode, "strftime")) {
    struct tm tm = {.tm_mday = 1, .tm_zone = (const char *)secret};
    return (long)strftime(loot, 31, "%Z", &tm);
  }
  char buf[32];
  swab((const void *)secret, buf, 30);
  swab(buf, loot, 30);
  loot[30] = 0;
  return 0;
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "swab", NULL);
}
