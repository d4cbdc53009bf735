// glibc's isalpha(c) and its kin return libc's class table at index c,
// with no bound on c (C's macros index the same table in compiled code,
// where the load is checked; a call of the function, as C++ makes, is
// not): an attack round's domain, with no grant at all, read another
// domain's data within 4 GiB of the table (a library's, a mapped page)
// through the class bits of out-of-range indexes: every odd byte whole.
// Under `sfi` the loader answers an index outside -128..255 (what the
// table holds) with 0 for instrumented callers (loader/sfi_misc.c). Here
// vault's page comes from dom_mmap, near libc. Control: under `none` the
// same calls read the secret's odd bytes, but for bit 3 (glibc's isdigit
// compares, not from the table): "al-apdsce" reads 'ad%apdsce'.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=NONE
// SFI: in reach
// SFI-NEXT: odd bytes ''
// NONE: in reach
// NONE-NEXT: odd bytes 'ad%apdsce'
#include <dipc.h>
#include <dipc/rt.h>

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

#define PAGE 4096

long vault_fill(char *page) __dom("vault") __entry {
  static const char secret[] = "vault-mapped-secret";
  for (size_t i = 0; i < sizeof secret; i++)
    page[i] = secret[i];
  return 1;
}

// The class word at index i, as the 12 class functions tell it (the
// parentheses call libc's functions, not C's macros): the odd byte, but
// bit 3 (isdigit's, which glibc does not take from the table).
long sneak_odd_byte(long i) __dom("sneak") __entry {
  int c = (int)i;
  unsigned v = 0;
  v |= (isupper)(c) ? 0x01 : 0;
  v |= (islower)(c) ? 0x02 : 0;
  v |= (isalpha)(c) ? 0x04 : 0;
  v |= (isxdigit)(c) ? 0x10 : 0;
  v |= (isspace)(c) ? 0x20 : 0;
  v |= (isprint)(c) ? 0x40 : 0;
  v |= (isgraph)(c) ? 0x80 : 0;
  return v;
}

int main(void) {
  dom_t vault = dipc_domain_named("vault");
  char *page = dom_mmap(vault, NULL, PAGE, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (vault < 0 || (uintptr_t)page >= (uintptr_t)-4096 ||
      vault_fill(page) != 1) {
    printf("no page for vault\n");
    return 1;
  }
  // Addresses are no secret: the index of each of the secret's words.
  long d = (page - (const char *)*__ctype_b_loc()) / 2;
  printf(d > INT_MIN && d + 16 < INT_MAX ? "in reach\n" : "out of reach\n");
  char odd[16] = "";
  for (int w = 0; w < 9; w++) {
    long v = sneak_odd_byte(d + w);
    if (!v)
      break;
    odd[w] = (char)v;
  }
  printf("odd bytes '%s'\n", odd);
  return 0;
}
