// Some libc functions keep their state in a structure of the caller's
// and follow the pointers in it: `evil` points them where it likes.
// `hsearch`: hsearch_r's table just before evil's own row of the rights
// matrix, so that the entry's data (0x0303...) gives evil read and write
// on every tag, then it reads the vault; `random_r`: random_r's state
// pointers at vault's secret and at evil's words, so that each call adds a
// word of the secret into evil's. No check at the call can hold: under
// `sfi` these functions (and regcomp/regexec, the aio family,
// getaddrinfo_a, loader/sfi_refused.c) are refused to instrumented code.
// Control: `none`, where the secret is stolen either way.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi hsearch 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-HSEARCH
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi random_r 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-RANDOM
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi hsearch 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi random_r 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI-NOT: stole
// SFI-HSEARCH: dipc: sfi: hsearch_r refused to the running domain (it would undo the isolation)
// SFI-RANDOM: dipc: sfi: random_r refused to the running domain (it would undo the isolation)
// SFI: nothing stolen
// STOLEN: stole 'vault-secret-42'
#include "Inputs/vault.h"

#include <dipc/sfi.h>
#include <search.h>

static int32_t words[8];

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  if (strcmp(mode, "hsearch") == 0) {
    char *row = (char *)(DIPC_SFI_RIGHTS_ADDR +
                         (uintptr_t)dipc_current_domain() * DIPC_SFI_TAGS);
    struct hsearch_data h;
    memset(&h, 0, sizeof h);
    h.table = (void *)(row - 40);
    h.size = 1;
    ENTRY item = {.key = "k", .data = (void *)0x0303030303030303ull}, *ret;
    hsearch_r(item, ENTER, &ret, &h);
    take(secret, loot);
    return 1;
  }
  struct random_data rd;
  memset(&rd, 0, sizeof rd);
  rd.fptr = words;
  rd.rptr = (int32_t *)secret;
  rd.state = words;
  rd.rand_type = 3;
  rd.rand_deg = 31;
  rd.rand_sep = 3;
  rd.end_ptr = words + 100; /* never reached in 8 calls */
  int32_t r;
  for (int i = 0; i < 8; ++i)
    random_r(&rd, &r);
  memcpy(loot, words, 31);
  loot[31] = 0;
  return 0;
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "hsearch", NULL);
}
