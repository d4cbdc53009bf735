// A domain library closed and opened again gets its pages back in its
// domain, tagged with the domain's key: after the reopen (at the same
// address, or at another one when the program holds the old one) the
// caller cannot read the library's data under mpk; with `none` it can
// (negative control). Its entry works after each reopen.
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 -shared -fPIC %S/Inputs/dlopen-plugin.c -o %t.so
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: not --crash %dipc-bin-dir/dipc-run %t %t.so same 2>&1 | FileCheck %s
// RUN: not --crash %dipc-bin-dir/dipc-run %t %t.so moved 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t %t.so same 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t %t.so moved 2>&1 | FileCheck %s --check-prefix=NONE
// CHECK: reopened: plugin_add 7 errno 0
// CHECK: dipc: protection-key fault: access to {{.*}} domain plugin
// CHECK-NOT: peeked
// NONE: reopened: plugin_add 7 errno 0
// NONE: peeked 7
#define _GNU_SOURCE
#include <dipc.h>
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

int plugin_add(int x) __dom("plugin") __entry;

int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib || plugin_add(3) != 3) {
    printf("first open failed\n");
    return 1;
  }
  struct link_map *map;
  dlinfo(lib, RTLD_DI_LINKMAP, &map);
  void *base = (void *)map->l_addr;
  dlclose(lib);
  if (strcmp(argv[2], "moved") == 0 &&
      mmap(base, 4096, PROT_NONE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) != base) {
    printf("cannot hold the old address\n");
    return 1;
  }
  lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    printf("dlopen again: %s\n", dlerror());
    return 1;
  }
  dlinfo(lib, RTLD_DI_LINKMAP, &map);
  if (((void *)map->l_addr == base) != (strcmp(argv[2], "same") == 0))
    printf("reopened at an unexpected address\n");
  int r = plugin_add(7);
  printf("reopened: plugin_add %d errno %d\n", r, dipc_errno);
  fflush(stdout);
  int *total = dlsym(lib, "plugin_total");
  printf("peeked %d\n", *total);
  return 0;
}
