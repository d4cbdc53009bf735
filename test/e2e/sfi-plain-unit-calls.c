// A program's plain units (compiled without dIPC: no records, no call
// magic) are trusted like the libraries, and their functions are call
// targets under `sfi` by the executable's symbol table (rt/sfi_cfi.c):
// the plain unit installs its own signal handler (the loader's sigaction
// checks it) and the instrumented main calls a plain function through a
// pointer. A pointer into the middle of that function is refused.
// RUN: %clang -O2 -c %S/Inputs/plain-unit.c -o %t.plain.o
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s %t.plain.o -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t.sfi middle 2>&1 | FileCheck %s --check-prefix=MIDDLE
// CHECK: helper 2
// CHECK-NEXT: plain handler ran
// CHECK-NEXT: twice 42
// MIDDLE: dipc: sfi fault: indirect call to 0x{{[0-9a-f]+}} (domain default) refused in the running domain (default): not a function start it may call
#include <dipc.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

void plain_install(void);
int plain_twice(int x);

int helper(int x) __dom("lib") __entry { return x + 1; }

int main(int argc, char **argv) {
  printf("helper %d\n", helper(1));
  fflush(stdout);
  plain_install();
  raise(SIGUSR1);
  fflush(stdout);
  int (*volatile twice)(int) = plain_twice;
  if (argc > 1 && strcmp(argv[1], "middle") == 0)
    twice = (int (*)(int))((char *)plain_twice + 1);
  printf("twice %d\n", twice(21));
  return 0;
}
