// A handle is its obtaining domain's: its value is no handle to code of
// another domain. The loader keeps the owner handle of every domain in its
// own data (default-domain memory); `mallory`, which may read the default
// domain, finds there the owner handles of its own domain and of the
// default domain and grants itself the default domain with them
// (grant_create(mallory's owner handle, the default domain's)). Both are
// the loader's handles, so the call is refused (EBADF) and mallory keeps
// read only: its write to the victim faults under mpk and main sees
// DIPC_EFAULT. The refusal is the API's own check and holds under `none`
// too, where mallory's direct write goes through (no keys: the negative
// control). Before the check the grant succeeded and mallory overwrote
// the victim under mpk. Under sfi (-fdipc-sfi) the loader's data is the
// runtime's, which no domain may read (main included): with
// `mallory-reads` mallory reads the table's count itself, that read faults
// and main sees DIPC_EFAULT, mallory finds no handle, and its write to the
// victim faults too. The same binary under `none` is the control.
// RUN: %dipc-clang -fdipc -O2 -I%S/../rt/Inputs %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -I%S/../rt/Inputs %s -o %t.sfi
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi mallory-reads 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefixes=CHECK,NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi mallory-reads 2>&1 | FileCheck %s --check-prefixes=CHECK,NONE
// CHECK: mallory found the loader's handles: 2
// CHECK-NEXT: mallory grants itself the default domain: error 9
// MPK-NEXT: mallory writes the victim: dipc_errno 14
// MPK-NEXT: victim 42
// NONE-NEXT: mallory writes the victim: dipc_errno 0
// NONE-NEXT: victim 2989
// SFI: mallory found the loader's handles: 0
// SFI-NEXT: mallory grants itself the default domain: faulted, dipc_errno 14
// SFI-NEXT: mallory writes the victim: dipc_errno 14
// SFI-NEXT: victim 42
#define _GNU_SOURCE
#include <dipc.h>
#include <dipc/rt.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "rt-symbol.h"

/* loader/domains.c's table: struct domain {char name[64]; dom_t owner;
 * size_t pages; uintptr_t heap;} */
struct loader_domain {
  char name[64];
  dom_t owner;
  size_t pages;
  uintptr_t heap;
};

static long victim = 42; /* default domain */
static long found __dom("mallory");

long mallory_steal(const struct loader_domain *table, unsigned count)
    __dom("mallory") __entry __perm("default", read) {
  dom_t mine = -1, def = -1;
  for (unsigned i = 0; i < count; i++) {
    if (!strcmp(table[i].name, "mallory"))
      mine = table[i].owner;
    if (!strcmp(table[i].name, "default"))
      def = table[i].owner;
  }
  found = (mine >= 0) + (def >= 0);
  return grant_create(mine, def);
}

/* The same, with the count read by mallory itself (under sfi the loader's
 * data is the runtime's: main may not read it either). */
long mallory_steal_at(const struct loader_domain *table,
                      const unsigned *count) __dom("mallory") __entry
    __perm("default", read) {
  return mallory_steal(table, *(const volatile unsigned *)count);
}

long mallory_found(void) __dom("mallory") __entry { return found; }

long mallory_write(long *p) __dom("mallory") __entry {
  *(volatile long *)p = 0xbad;
  return 1;
}

int main(int argc, char **argv) {
  void *loader = dlsym(RTLD_DEFAULT, "__dipc_loader_version");
  const struct loader_domain *table = symbol_in(loader, "domains");
  const unsigned *count = symbol_in(loader, "num_domains");
  /* `mallory-reads`: mallory reads the count, main does not */
  long r = argc > 1 && !strcmp(argv[1], "mallory-reads")
               ? mallory_steal_at(table, count)
               : mallory_steal(table, *count);
  int err = dipc_errno;
  printf("mallory found the loader's handles: %ld\n", mallory_found());
  printf("mallory grants itself the default domain: %s %ld\n",
         r < 0 ? "error" : err ? "faulted, dipc_errno" : "granted",
         r < 0 ? -r : err ? err : r);
  mallory_write(&victim);
  printf("mallory writes the victim: dipc_errno %d\n", dipc_errno);
  printf("victim %ld\n", victim);
  return 0;
}
