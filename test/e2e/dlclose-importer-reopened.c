// A library of the default domain that imports another library's entry,
// closed and opened again (at the same address) 200 times: each reopen
// registers its fresh import slot with the runtime again (the old one,
// in unmapped memory, is dropped), and its call crosses into the plugin,
// whose state lives on across the importer's reopens.
// RUN: %dipc-clang -fdipc -O2 -shared -fPIC %S/Inputs/dlopen-plugin.c -o %t-plugin.so
// RUN: %dipc-clang -fdipc -O2 -shared -fPIC %S/Inputs/dlclose-importer.c -o %t-importer.so
// RUN: %dipc-clang -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t %t-plugin.so %t-importer.so 2>&1 | FileCheck %s
// CHECK: 200 reopens: plugin_total 200, errors 0
#include <dipc.h>
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
  if (!dlopen(argv[1], RTLD_NOW)) {
    printf("dlopen plugin: %s\n", dlerror());
    return 1;
  }
  int total = 0, errors = 0;
  for (int i = 0; i < 200; i++) {
    void *lib = dlopen(argv[2], RTLD_NOW);
    int (*call)(int) = lib ? (int (*)(int))dlsym(lib, "importer_call") : 0;
    if (!call) {
      printf("cycle %d: %s\n", i, dlerror());
      return 1;
    }
    total = call(1);
    errors += dipc_errno != 0;
    dlclose(lib);
  }
  printf("200 reopens: plugin_total %d, errors %d\n", total, errors);
  return 0;
}
