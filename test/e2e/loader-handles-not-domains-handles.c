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
// the victim under mpk.
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 -I%S/../rt/Inputs %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefixes=CHECK,NONE
// CHECK: mallory found the loader's handles: 2
// CHECK-NEXT: mallory grants itself the default domain: error 9
// MPK-NEXT: mallory writes the victim: dipc_errno 14
// MPK-NEXT: victim 42
// NONE-NEXT: mallory writes the victim: dipc_errno 0
// NONE-NEXT: victim 2989
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

long mallory_found(void) __dom("mallory") __entry { return found; }

long mallory_write(long *p) __dom("mallory") __entry {
  *(volatile long *)p = 0xbad;
  return 1;
}

int main(void) {
  void *loader = dlsym(RTLD_DEFAULT, "__dipc_loader_version");
  const struct loader_domain *table = symbol_in(loader, "domains");
  unsigned count = *(const unsigned *)symbol_in(loader, "num_domains");
  long r = mallory_steal(table, count);
  printf("mallory found the loader's handles: %ld\n", mallory_found());
  printf("mallory grants itself the default domain: %s %ld\n",
         r < 0 ? "error" : "granted", r < 0 ? -r : r);
  mallory_write(&victim);
  printf("mallory writes the victim: dipc_errno %d\n", dipc_errno);
  printf("victim %ld\n", victim);
  return 0;
}
