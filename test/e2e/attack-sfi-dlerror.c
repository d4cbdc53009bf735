// dlerror formats the record a failed dlsym or dlopen left (glibc 2.36:
// its object name and message, behind pointers in a block libc's malloc
// took from the running domain's heap). An attack round's domain `sneak`,
// with no grant at all, found that block in its heap, pointed the name at
// vault's secret, and dlerror copied the secret into its message. Under
// `sfi` dlerror is refused to named domains (loader/sfi_dl.c: NULL, the
// reason on stderr), and sneak gets nothing. Control: under `none` the
// same program steals the secret.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=NONE
// SFI: dipc: sfi: dlerror refused
// SFI: sneak returned -2, dipc_errno 0
// SFI: nothing stolen
// NONE: stole 'vault-secret-42:'
#include "Inputs/vault.h"
#include <stdbool.h>

struct dl_action_result { int errcode; char source; bool returned;
                          const char *objname; char *errstring; };

long sneak(const char *secret, char *loot) __dom("sneak") __entry;
long sneak(const char *secret, char *loot) {
  if (loot) return *(const volatile long *)secret;  // direct read: control
  if (dlsym(RTLD_DEFAULT, "h6_no_such_symbol") != NULL) return -1;
  char *buf = dlerror();               // buf now in result->errstring
  if (!buf) return -2;
  struct dl_action_result *r = NULL;
  char **m = malloc(24);  // same size class as result: same slab
  for (char **p = m - 64; p < m + 64; p++)
    if (*p == buf && p != (char **)&buf) { r = (void *)((char *)p - 16); break; }
  if (!r) return -3;
  char *empty = malloc(2); empty[0] = 0x78; empty[1] = 0;
  r->errcode = 0; r->source = 0; r->returned = false;
  r->objname = secret; r->errstring = empty;
  char *out = dlerror();               // asprintf("%s: %s", secret, "x")
  if (!out) return -4;
  long w = 0;
  memcpy(&w, out, 8);
  return w;
}

int main(int argc, char **argv) {
  const char *secret = vault_address();
  char loot[32] = "";
  if (argc > 1) {  // control: sneak reads the secret directly
    long w = sneak(secret, loot);
    printf("direct read returned %ld, dipc_errno %d\n", w, dipc_errno);
    return 0;
  }
  for (int i = 0; i < 16; i += 8) {
    long w = sneak(secret + i, NULL);
    memcpy(loot + i, &w, 8);
    printf("sneak returned %ld, dipc_errno %d\n", w, dipc_errno);
  }
  loot[16] = 0;
  printf(strstr(loot, "vault") ? "stole '%s'\n" : "nothing stolen%.0s\n", loot);
  return 0;
}
