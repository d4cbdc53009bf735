// dlmopen: in the base namespace (LM_ID_BASE) a domain library is set up
// as with dlopen, and its entry is called; in a new namespace it would get
// a copy of libc and libdipc of its own, out of the loader's and the
// runtime's reach, so the loader refuses it (NULL, with the reason on
// stderr) before anything of it is loaded. A library without dIPC records
// may still go to a new namespace (with `none`: under mpk the runtime
// refuses the namespace's own copy of libc, which holds a wrpkru).
// RUN: %dipc-clang -fdipc -O2 -shared -fPIC %S/Inputs/dlopen-plugin.c -o %t.so
// RUN: %dipc-clang -O2 -shared -fPIC %S/Inputs/plain-lib.c -o %t-plain.so
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t %t.so new 2>&1 | FileCheck %s --check-prefix=NEW
// RUN: %dipc-bin-dir/dipc-run %t %t.so base 2>&1 | FileCheck %s --check-prefix=BASE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t %t-plain.so plain 2>&1 | FileCheck %s --check-prefix=PLAIN
// NEW: dipc-loader: dlmopen("{{.*}}.so") refused: an object with dIPC records can only be loaded in the base namespace (LM_ID_BASE)
// NEW-NEXT: dlmopen(LM_ID_NEWLM): NULL
// NEW-NEXT: copies of the library loaded: 0
// BASE: dlmopen(LM_ID_BASE): loaded, plugin_add: 2 5 errno 0
// PLAIN: dlmopen(LM_ID_NEWLM) of a plain library: loaded, plain_twice(21) = 42
#define _GNU_SOURCE
#include <dipc.h>
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

int plugin_add(int x) __dom("plugin") __entry;

static int copies(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  const char *lib = ((const char **)data)[0];
  *(int *)((const char **)data)[1] += strcmp(info->dlpi_name, lib) == 0;
  return 0;
}

int main(int argc, char **argv) {
  if (strcmp(argv[2], "new") == 0) {
    void *lib = dlmopen(LM_ID_NEWLM, argv[1], RTLD_NOW);
    fflush(stderr);
    printf("dlmopen(LM_ID_NEWLM): %s\n", lib ? "loaded" : "NULL");
    int n = 0;
    const void *data[2] = {argv[1], &n};
    dl_iterate_phdr(copies, data);
    printf("copies of the library loaded: %d\n", n);
    return 0;
  }
  if (strcmp(argv[2], "base") == 0) {
    void *lib = dlmopen(LM_ID_BASE, argv[1], RTLD_NOW);
    if (!lib) {
      printf("dlmopen(LM_ID_BASE): %s\n", dlerror());
      return 1;
    }
    int a = plugin_add(2), b = plugin_add(3);
    printf("dlmopen(LM_ID_BASE): loaded, plugin_add: %d %d errno %d\n", a, b,
           dipc_errno);
    return 0;
  }
  void *lib = dlmopen(LM_ID_NEWLM, argv[1], RTLD_NOW);
  if (!lib) {
    printf("dlmopen(LM_ID_NEWLM): %s\n", dlerror());
    return 1;
  }
  int (*twice)(int) = (int (*)(int))dlsym(lib, "plain_twice");
  printf("dlmopen(LM_ID_NEWLM) of a plain library: loaded, plain_twice(21) = "
         "%d\n",
         twice ? twice(21) : -1);
  return 0;
}
