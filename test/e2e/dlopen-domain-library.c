// A domain library opened with dlopen: the loader reads its records when it
// is opened, gives the domain its pages, and the program's import of its
// entry (resolved on its first call) crosses into it. Before
// the dlopen nothing defines the entry (--info says so). The library's data
// is the plugin domain's: the caller cannot read it under mpk, nor under
// sfi (program and library built with -fdipc-sfi: the read is an sfi
// fault naming domain plugin); with `none` it can (negative control, both
// builds).
// RUN: %dipc-clang -fdipc -O2 -shared -fPIC %S/Inputs/dlopen-plugin.c -o %t.so
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -shared -fPIC %S/Inputs/dlopen-plugin.c -o %t.sfi.so
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %if pku %{ %dipc-bin-dir/dipc-run --info %t %t.so 2>&1 | FileCheck %s %}
// RUN: %if pku %{ not --crash %dipc-bin-dir/dipc-run %t %t.so peek 2>&1 | FileCheck %s --check-prefix=PEEK %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi --info %t.sfi %t.sfi.so 2>&1 | FileCheck %s
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t.sfi %t.sfi.so peek 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t %t.so peek 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi %t.sfi.so peek 2>&1 | FileCheck %s --check-prefix=NONE
// CHECK: dipc: import plugin_add from default to plugin (entry not loaded)
// CHECK: plugin_add: 2 5 errno 0
// PEEK: dipc: protection-key fault: access to {{.*}} domain plugin
// PEEK-NOT: peeked
// SFI: plugin_add: 2 5 errno 0
// SFI-NEXT: dipc: sfi fault: read of 4 bytes at 0x{{[0-9a-f]+}} (domain plugin) denied to the running domain (default)
// SFI-NOT: peeked
// NONE: plugin_add: 2 5 errno 0
// NONE-NEXT: peeked 5
#include <dipc.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int plugin_add(int x) __dom("plugin") __entry;

int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  int a = plugin_add(2), b = plugin_add(3);
  printf("plugin_add: %d %d errno %d\n", a, b, dipc_errno);
  if (argc > 2 && strcmp(argv[2], "peek") == 0) {
    fflush(stdout);
    int *total = dlsym(lib, "plugin_total");
    printf("peeked %d\n", *total);
  }
  return 0;
}
