// A library whose dIPC records the validator refuses is refused when the
// program dlopens it, before it is mapped: its constructor never runs
// (before, the records were read after dlopen had run it). The unmodified
// library loads, its constructor runs and its entry is called (control).
// RUN: %dipc-clang -fdipc -O2 -shared -fPIC -DLIBRARY %s -o %t.so
// RUN: llvm-objcopy --dump-section=dipc_entries=%t.sec %t.so
// RUN: python3 %S/Inputs/patch-bytes.py %t.sec 0 07000000
// RUN: llvm-objcopy --update-section=dipc_entries=%t.sec %t.so %t-bad.so
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: sh -c '"$0" "$1" "$2"; echo "status $?"' %dipc-bin-dir/dipc-run %t %t-bad.so > %t.bad.out 2>&1
// RUN: FileCheck %s < %t.bad.out
// RUN: %dipc-bin-dir/dipc-run %t %t.so 2>&1 | FileCheck %s --check-prefix=GOOD
// CHECK-NOT: constructor ran
// CHECK: dipc-loader: refusing {{.*}}-bad.so: malformed dIPC metadata: entry record 0: version 7; this reader reads version 1
// CHECK-NOT: constructor ran
// CHECK: status 78
// GOOD: constructor ran
// GOOD: plugin_scale(7) = 21
#include <dipc.h>
#include <stdio.h>

int plugin_scale(int x) __dom("plugin") __entry;

#ifdef LIBRARY
__attribute__((constructor)) static void announce(void) {
  puts("constructor ran");
  fflush(stdout);
}
int plugin_scale(int x) { return 3 * x; }
#else
#include <dlfcn.h>
int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  int (*scale)(int) = (int (*)(int))dlsym(h, "plugin_scale");
  printf("plugin_scale(7) = %d\n", scale ? scale(7) : -1);
  return 0;
}
#endif
