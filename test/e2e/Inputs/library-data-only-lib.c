// The data-only library of e2e/attack-library-data-file-rewritten.c
// (-DDATA_ONLY): vault's record and bound with no code at all (built with
// -nostartfiles), so that it has no executable mapping; vault's entry is
// the program's.
#include "library-data.h"

struct rec vault_rec __dom("vault") = {"public-info-abc", "vault-secret-42"};
const volatile struct lim vault_lim __dom("vault") = {"VAULT-LEN-MARKR", 16};
