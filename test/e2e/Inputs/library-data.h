// Vault's record and bound of e2e/attack-library-data-file-rewritten.c,
// defined by Inputs/library-data-lib.c or Inputs/library-data-only-lib.c,
// and its entry (VAULT_ENTRY_HERE: defined by the includer): any domain
// may read the public half of the record, 8 bytes at a time, up to the
// bound in vault's .rodata.
#include <dipc.h>
#include <string.h>

struct rec {
  char pub[16];
  char secret[16];
};
struct lim {
  char marker[16];
  unsigned len;
};

#ifdef VAULT_ENTRY_HERE
extern struct rec vault_rec __dom("vault");
extern const volatile struct lim vault_lim __dom("vault");

long vault_public_word(long i) __dom("vault") __entry {
  if (i < 0 || (unsigned long)(i + 1) * 8 > vault_lim.len)
    return -1;
  long v;
  memcpy(&v, (const char *)&vault_rec + i * 8, 8);
  return v;
}
#else
long vault_public_word(long i) __dom("vault") __entry;
#endif
