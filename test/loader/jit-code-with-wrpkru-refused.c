// Code made executable at run time is checked like loaded code: mprotect
// to PROT_EXEC of bytes holding WRPKRU fails with EACCES under mpk, while
// harmless code is accepted and runs; `none` accepts both (control).
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// MPK: harmless code: mprotect 0, returns 42
// MPK: dipc: refusing to make {{.*}} executable: it contains a wrpkru instruction
// MPK: wrpkru code: mprotect -1 (Permission denied)
// NONE: harmless code: mprotect 0, returns 42
// NONE: wrpkru code: mprotect 0
#include <dipc.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

int lookup(int key) __dom("db") __entry { return key; }

static int make_code(const char *what, const unsigned char *code, size_t n) {
  unsigned char *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  memcpy(page, code, n);
  int rc = mprotect(page, 4096, PROT_READ | PROT_EXEC);
  printf("%s: mprotect %d", what, rc);
  if (rc != 0)
    printf(" (%s)", strerror(errno));
  else if (code[0] == 0xb8)
    printf(", returns %d", ((int (*)(void))page)());
  printf("\n");
  return rc;
}

int main(void) {
  const unsigned char ret42[] = {0xb8, 42, 0, 0, 0, 0xc3}; // mov eax,42; ret
  // Built at run time: as a constant, the compiler would store it with an
  // immediate holding the very bytes, and the loader would refuse this test.
  volatile unsigned char mask = 0xff;
  unsigned char wrpkru[] = {0x0f ^ 0xff, 0x01 ^ 0xff, 0xef ^ 0xff, 0xc3};
  for (int i = 0; i < 3; ++i)
    wrpkru[i] ^= mask;
  make_code("harmless code", ret42, sizeof ret42);
  fflush(stdout);
  make_code("wrpkru code", wrpkru, sizeof wrpkru);
  return lookup(0);
}
