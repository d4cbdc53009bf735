// Writable and executable memory could be changed after any check: under
// mpk it is refused (mmap and mprotect); `none` allows it (control).
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// MPK: refusing writable and executable memory
// MPK: mmap rwx: failed
// MPK: refusing writable and executable memory
// MPK: mprotect rwx: -1
// NONE: mmap rwx: ok
// NONE: mprotect rwx: 0
#include <dipc.h>
#include <stdio.h>
#include <sys/mman.h>

int lookup(int key) __dom("db") __entry { return key; }

int main(void) {
  const int rwx = PROT_READ | PROT_WRITE | PROT_EXEC;
  void *p = mmap(NULL, 4096, rwx, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  printf("mmap rwx: %s\n", p == MAP_FAILED ? "failed" : "ok");
  fflush(stdout);
  void *q = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  printf("mprotect rwx: %d\n", mprotect(q, 4096, rwx));
  return lookup(0);
}
