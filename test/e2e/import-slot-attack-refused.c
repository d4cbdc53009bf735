// dipc_import_register may not make the runtime write where the importing
// domain may not. `mallory` has only __perm("default", read). It creates a
// domain of its own (to hold an owner handle, which register needs) and
// names two slots: the default domain's `victim`, and its own entry in the
// runtime's permission table (APL[mallory][default]), after registering
// dummy imports until the guard address the runtime stores there has the
// low byte 3 (`write`). Both are refused (EPERM); the victim keeps its
// value, mallory keeps read only: its write to the victim faults under mpk
// and main sees DIPC_EFAULT. The refusals are the API's own checks and
// hold under `none` too; what `none` lets through is mallory's direct
// write (no keys: the negative control). Before the check the runtime
// stored its guard address into the victim and raised mallory's grant to
// write, and mallory's write succeeded under mpk. Under sfi (-fdipc-sfi)
// libdipc's data is the runtime's, which no domain may read (main
// included): with `mallory-reads` mallory reads the table's address itself,
// that read faults (DIPC_EFAULT to main), the victim slot is refused as
// under mpk and mallory's write to the victim faults. The same binary
// under `none` is the control.
// RUN: %dipc-clang -fdipc -O2 -I%S/../rt/Inputs %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -I%S/../rt/Inputs %s -o %t.sfi
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi mallory-reads 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefixes=CHECK,NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi mallory-reads 2>&1 | FileCheck %s --check-prefixes=CHECK,NONE
// CHECK: dummy imports: ok
// CHECK-NEXT: slot on the default domain's victim: error 1
// CHECK-NEXT: slot on mallory's permission-table entry: error 1
// CHECK-NEXT: victim 42
// MPK-NEXT: mallory writes the victim: dipc_errno 14
// MPK-NEXT: victim 42
// NONE-NEXT: mallory writes the victim: dipc_errno 0
// NONE-NEXT: victim 2989
// SFI: dummy imports: ok
// SFI-NEXT: slot on the default domain's victim: error 1
// SFI-NEXT: slot on mallory's permission-table entry: faulted, dipc_errno 14
// SFI-NEXT: victim 42
// SFI-NEXT: mallory writes the victim: dipc_errno 14
// SFI-NEXT: victim 42
#define _GNU_SOURCE
#include <dipc.h>
#include <dipc/rt.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "rt-symbol.h"

#define RT_MAX_DOMAINS 1024 /* rt/layout.h: the APL is a square of them */

static long victim = 42; /* default domain */
static const struct dipc_signature no_args;
/* mallory's own data */
static dom_t own __dom("mallory") = -1;
static void **own_page __dom("mallory");

/* Registers imports of mallory's own domain until the next id ends in the
 * byte 3 (write), then one whose slot is `slot`, or with `apl` set its own
 * entry for the default domain in that permission table. */
long mallory_register(void **slot, uint8_t *apl) __dom("mallory") __entry
    __perm("default", read) {
  if (own < 0) {
    own = dom_create();
    own_page = dom_mmap(own, NULL, 4096, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (own < 0 || dipc_ptr_err(own_page))
      return -1000;
  }
  if (apl)
    slot = (void **)(apl + dipc_current_domain() * RT_MAX_DOMAINS + 0);
  long id = 0;
  while (id >= 0 && ((id + 1) & 0xff) != DIPC_PERM_WRITE)
    id = dipc_import_register(own, own_page, &no_args, 0, "dummy");
  if (id < 0)
    return -1000;
  return dipc_import_register(own, slot, &no_args, 0, "attack");
}

/* The same on its permission-table entry, with the table's address read by
 * mallory itself (under sfi libdipc's data is the runtime's: main may not
 * read it either). */
long mallory_register_at(uint8_t *const *apl) __dom("mallory") __entry
    __perm("default", read) {
  return mallory_register(NULL, *(uint8_t *const volatile *)apl);
}

long mallory_write(long *p) __dom("mallory") __entry {
  *(volatile long *)p = 0xbad;
  return 1;
}

static void show(const char *what, long r) {
  int err = dipc_errno;
  printf("%s: %s %ld\n", what,
         r < 0 ? "error" : err ? "faulted, dipc_errno" : "accepted",
         r < 0 ? -r : err ? err : r);
}

int main(int argc, char **argv) {
  /* The permission table: runtime state, its address in libdipc's data.
   * `mallory-reads`: mallory reads it, main does not. */
  int mallory_reads = argc > 1 && !strcmp(argv[1], "mallory-reads");
  uint8_t **apl = rt_symbol("apl");
  long r = mallory_register((void **)&victim, NULL);
  printf("dummy imports: %s\n",
         r != -1000 && dipc_errno == 0 ? "ok" : "failed");
  show("slot on the default domain's victim", r);
  show("slot on mallory's permission-table entry",
       mallory_reads ? mallory_register_at(apl) : mallory_register(NULL, *apl));
  printf("victim %ld\n", victim);
  mallory_write(&victim);
  printf("mallory writes the victim: dipc_errno %d\n", dipc_errno);
  printf("victim %ld\n", victim);
  return 0;
}
