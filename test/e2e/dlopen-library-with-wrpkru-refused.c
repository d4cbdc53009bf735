// A library opened later is checked like the program: one whose code holds
// WRPKRU stops the program at dlopen under mpk; `none` opens it (control).
// REQUIRES: pku
// RUN: %clang -O2 -shared -fPIC %S/Inputs/dlopen-wrpkru.c -o %t.so
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: not %dipc-bin-dir/dipc-run %t %t.so 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t %t.so 2>&1 | FileCheck %s --check-prefix=NONE
// CHECK: dipc: refusing {{.*}}.so: it contains a wrpkru instruction
// CHECK-NOT: library_value
// NONE: library_value=7
#include <dipc.h>
#include <dlfcn.h>
#include <stdio.h>

int lookup(int key) __dom("db") __entry { return key; }

int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW);
  int (*value)(void) = lib ? (int (*)(void))dlsym(lib, "library_value") : 0;
  printf("library_value=%d\n", value ? value() : -1);
  return lookup(0);
}
