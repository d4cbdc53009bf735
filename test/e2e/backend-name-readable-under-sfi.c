// The program reads the name dipc_backend() returns under every backend,
// sfi included, where libdipc's own image is the runtime's and reading it
// is refused: the names lie in a page of their own, shared. (An
// instrumented program printing its backend used to be stopped.)
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=NONE
// SFI: backend sfi (3 bytes)
// SFI-NEXT: worker returned 2
// NONE: backend none (4 bytes)
#include <dipc.h>
#include <dipc/rt.h>
#include <stdio.h>
#include <string.h>

int next(int x) __dom("worker") __entry { return x + 1; }

int main(void) {
  const char *name = dipc_backend();
  printf("backend %s (%zu bytes)\n", name, strlen(name));
  printf("worker returned %d\n", next(1));
  return 0;
}
