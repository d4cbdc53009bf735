// Only the runtime binds an address to an entry's anycall proxy, once: a
// dlopen'd library (default-domain code, as powerful as the loader's own
// domain) asking to register an address that is already registered gets
// -DIPC_EEXIST and the pointer still calls its entry; an address that is
// no anycall stub gets -DIPC_EINVAL, a signature other than the entry's
// -DIPC_EPROTO; a named domain asking gets -DIPC_EPERM whatever it asks.
// Nothing of it depends on protection keys (same with --backend=none).
// RUN: %clang -O2 -shared -fPIC -I%dipc-include %S/Inputs/anycall-register-lib.c -o %t.so -L%dipc-lib-dir -ldipc
// RUN: %dipc-clang -fdipc -O2 %s -o %t -ldl
// RUN: %dipc-bin-dir/dipc-run %t %t.so 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t %t.so 2>&1 | FileCheck %s
// CHECK: overwrite victim's stub: -17
// CHECK-NEXT: register a plain function: -22
// CHECK-NEXT: wrong signature: -71
// CHECK-NEXT: from a named domain: -1
// CHECK-NEXT: victim's pointer gives 42
#include <dipc.h>
#include <dipc/rt.h>
#include <dlfcn.h>
#include <stdio.h>

long victim_get(long x) __dom("victim") __entry { return x + 41; }

typedef long try_fn(void *stub, void *plain);

long evil_register(void *stub, long handle) __dom("evil") __entry
    __perm("default", read) {
  struct dipc_signature sig = {1, 0, 1, 0, 0};
  return dipc_anycall_register(handle, stub, &sig);
}

long plain(long x) { return x; }

int main(int argc, char **argv) {
  void *lib = argc > 1 ? dlopen(argv[1], RTLD_NOW) : NULL;
  try_fn *attack = lib ? (try_fn *)dlsym(lib, "attack") : NULL;
  if (!attack) {
    printf("cannot load %s: %s\n", argc > 1 ? argv[1] : "?", dlerror());
    return 1;
  }
  long (*volatile victim)(long) = victim_get;
  long handle = attack((void *)victim, (void *)plain);
  printf("from a named domain: %ld\n",
         evil_register((void *)victim, handle));
  printf("victim's pointer gives %ld\n", victim(1));
  return 0;
}
