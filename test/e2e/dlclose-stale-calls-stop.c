// After dlclose unloads a domain library, nothing reaches into where it
// was: a call through the entry's address taken before (its anycall stub,
// in the program) stops the process naming the address, as a call of an
// entry never loaded does; a call through the program's import stops the
// process as an undefined import does (status 78 both), instead of
// jumping to the unmapped callee or to whatever is mapped there next.
// Opened again, both work as the first time. --info after the dlclose
// lists the import and the address as "entry not loaded" and no longer
// the library's entry.
// RUN: %dipc-clang -fdipc -O2 -shared -fPIC %S/Inputs/dlopen-plugin.c -o %t.so
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: sh -c '"$@"; echo "status $?"' sh %dipc-bin-dir/dipc-run %t %t.so pointer 2>&1 | FileCheck %s --check-prefix=POINTER
// RUN: sh -c '"$@"; echo "status $?"' sh %dipc-bin-dir/dipc-run %t %t.so import 2>&1 | FileCheck %s --check-prefix=IMPORT
// RUN: %dipc-bin-dir/dipc-run --info %t %t.so reopen 2>&1 | FileCheck %s --check-prefix=REOPEN
// POINTER: before dlclose: 2 errno 0
// POINTER-NEXT: closed
// POINTER-NEXT: dipc: call through 0x{{[0-9a-f]+}}, which is not the address of a loaded entry
// POINTER-NOT: after dlclose
// POINTER: status 78
// IMPORT: before dlclose: 2 errno 0
// IMPORT-NEXT: closed
// IMPORT-NEXT: dipc: cannot resolve entry 'plugin_add' of domain 'plugin' called from domain 'default': no loaded object defines it
// IMPORT-NOT: after dlclose
// IMPORT: status 78
// REOPEN: before dlclose: 2 errno 0
// REOPEN: dipc: after dlclose:
// REOPEN-NOT: dipc: entry plugin_add
// REOPEN: dipc: import plugin_add from default to plugin (entry not loaded)
// REOPEN-NOT: dipc: entry plugin_add
// REOPEN: dipc: address of plugin_add of plugin: entry not loaded
// REOPEN-NOT: dipc: entry plugin_add
// REOPEN: closed
// REOPEN-NEXT: after reopen: pointer 4 import 9 errno 0
#include <dipc.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int plugin_add(int x) __dom("plugin") __entry;

int main(int argc, char **argv) {
  int (*volatile add)(int) = plugin_add;
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  int a = add(2);
  printf("before dlclose: %d errno %d\n", a, dipc_errno);
  fflush(stdout);
  if (dlclose(lib) != 0) {
    printf("dlclose: %s\n", dlerror());
    return 1;
  }
  printf("closed\n");
  fflush(stdout);
  if (strcmp(argv[2], "pointer") == 0)
    printf("after dlclose: pointer %d errno %d\n", add(3), dipc_errno);
  if (strcmp(argv[2], "import") == 0)
    printf("after dlclose: import %d errno %d\n", plugin_add(3), dipc_errno);
  if (!dlopen(argv[1], RTLD_NOW)) {
    printf("dlopen again: %s\n", dlerror());
    return 1;
  }
  int b = add(4), c = plugin_add(5);
  printf("after reopen: pointer %d import %d errno %d\n", b, c, dipc_errno);
  return 0;
}
