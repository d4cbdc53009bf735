// The library of e2e/attack-library-data-file-rewritten.c: domain
// vault's record in .data (public half, secret half) and the bound of
// what its entry hands out in .rodata, both pages of this file that the
// process never writes.
#include <dipc.h>
#include <string.h>

struct rec {
  char pub[16];
  char secret[16];
};
static struct rec vault_rec __dom("vault") = {"public-info-abc", "vault-secret-42"};
struct lim {
  char marker[16];
  unsigned len;
};
static const volatile struct lim vault_lim __dom("vault") = {"VAULT-LEN-MARKR",
                                                            16};

// Any domain may read the public half, 8 bytes at a time.
long vault_public_word(long i) __dom("vault") __entry {
  if (i < 0 || (unsigned long)(i + 1) * 8 > vault_lim.len)
    return -1;
  long v;
  memcpy(&v, (const char *)&vault_rec + i * 8, 8);
  return v;
}
