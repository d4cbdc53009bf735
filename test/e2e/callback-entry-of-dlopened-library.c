// The address of an entry of a library the program opens later: the loader
// registers it when the library is loaded (--info shows it first as
// "entry not loaded", then callable), and a call through it then crosses
// into the library's domain. Called before the library is loaded, it stops
// the process with a message naming the address and status 78, as a call
// of an undefined symbol would, instead of running anything.
// RUN: %dipc-clang -fdipc -O2 -shared -fPIC %S/Inputs/dlopen-plugin.c -o %t.so
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --info %t %t.so 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t %t.so 2>&1 | FileCheck %s --check-prefix=LATE
// RUN: sh -c '"$@"; echo "status $?"' sh %dipc-bin-dir/dipc-run %t %t.so early 2>&1 | FileCheck %s --check-prefix=EARLY
// CHECK: dipc: address of plugin_add of plugin: entry not loaded
// CHECK: plugin_add through its address: 2 5 errno 0
// LATE: plugin_add through its address: 2 5 errno 0
// EARLY: dipc: call through 0x{{[0-9a-f]+}}, which is not the address of a loaded entry
// EARLY-NOT: plugin_add through
// EARLY: status 78
#include <dipc.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int plugin_add(int x) __dom("plugin") __entry;

int main(int argc, char **argv) {
  int (*volatile add)(int) = plugin_add;
  if (argc > 2 && strcmp(argv[2], "early") == 0) {
    fflush(stdout);
    add(1);
  }
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  int a = add(2), b = add(3);
  printf("plugin_add through its address: %d %d errno %d\n", a, b,
         dipc_errno);
  return 0;
}
