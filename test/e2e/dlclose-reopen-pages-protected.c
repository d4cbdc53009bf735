// A domain library closed and opened again gets its pages back in its
// domain, tagged with the domain's key: after the reopen (at the same
// address, or at another one when the program holds the old one) the
// caller cannot read the library's data under mpk, nor under sfi
// (program and library built with -fdipc-sfi: the read is an sfi fault
// naming domain plugin); with `none` it can (negative control, both
// builds). Its entry works after each reopen. The library's base comes
// from dladdr, not dlinfo, which the sfi loader refuses to the program.
// RUN: %dipc-clang -fdipc -O2 -shared -fPIC %S/Inputs/dlopen-plugin.c -o %t.so
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -shared -fPIC %S/Inputs/dlopen-plugin.c -o %t.sfi.so
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %if pku %{ not --crash %dipc-bin-dir/dipc-run %t %t.so same 2>&1 | FileCheck %s %}
// RUN: %if pku %{ not --crash %dipc-bin-dir/dipc-run %t %t.so moved 2>&1 | FileCheck %s %}
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t.sfi %t.sfi.so same 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t.sfi %t.sfi.so moved 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t %t.so same 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t %t.so moved 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi %t.sfi.so same 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi %t.sfi.so moved 2>&1 | FileCheck %s --check-prefix=NONE
// CHECK: reopened: plugin_add 7 errno 0
// CHECK: dipc: protection-key fault: access to {{.*}} domain plugin
// CHECK-NOT: peeked
// SFI-NOT: unexpected address
// SFI: reopened: plugin_add 7 errno 0
// SFI-NEXT: dipc: sfi fault: read of 4 bytes at 0x{{[0-9a-f]+}} (domain plugin) denied to the running domain (default)
// SFI-NOT: peeked
// NONE-NOT: unexpected address
// NONE: reopened: plugin_add 7 errno 0
// NONE: peeked 7
#define _GNU_SOURCE
#include <dipc.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

int plugin_add(int x) __dom("plugin") __entry;

/* Where the library is mapped (its link map's l_addr: it is linked at 0). */
static void *base_of(void *lib) {
  Dl_info at;
  void *sym = dlsym(lib, "plugin_total");
  return sym && dladdr(sym, &at) ? at.dli_fbase : NULL;
}

int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib || plugin_add(3) != 3) {
    printf("first open failed\n");
    return 1;
  }
  void *base = base_of(lib);
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
  if ((base_of(lib) == base) != (strcmp(argv[2], "same") == 0))
    printf("reopened at an unexpected address\n");
  int r = plugin_add(7);
  printf("reopened: plugin_add %d errno %d\n", r, dipc_errno);
  fflush(stdout);
  int *total = dlsym(lib, "plugin_total");
  printf("peeked %d\n", *total);
  return 0;
}
