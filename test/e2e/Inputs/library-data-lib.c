// The library of e2e/attack-library-data-file-rewritten.c: domain vault's
// record in .data (public half, secret half), the bound of what its entry
// hands out in .rodata (pages of this file that the process never
// writes), and the entry.
#define VAULT_ENTRY_HERE
#include "library-data.h"

struct rec vault_rec __dom("vault") = {"public-info-abc", "vault-secret-42"};
const volatile struct lim vault_lim __dom("vault") = {"VAULT-LEN-MARKR", 16};
