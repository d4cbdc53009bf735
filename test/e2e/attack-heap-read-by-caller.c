// The attacker is the default domain (main): a library domain keeps its
// state in blocks of its own heap, and main, holding a pointer to one,
// reads it. Under mpk the domain's heap carries the domain's key and the
// read faults (the loader names the owner: domain lib); under `none`
// (negative control) main reads the secret.
// RUN: %dipc-clang -fdipc -O1 %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O1 %s -o %t.sfi
// RUN: %if pku %{ not --crash %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=MPK %}
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=NONE
// MPK: lib's block: in lib's heap
// MPK: dipc: protection-key fault: access to 0x{{[0-9a-f]+}} (key {{[0-9]+}}, domain lib) denied to the running domain
// MPK-NOT: main read
// SFI: lib's block: in lib's heap
// SFI: dipc: sfi fault: read of {{[0-9]+}} bytes at 0x{{[0-9a-f]+}} (domain lib) denied to the running domain (default)
// SFI-NOT: main read
// NONE: lib's block: in lib's heap
// NONE-NEXT: main read: lib's secret
#include <dipc.h>
#include <dipc/rt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long lib_secret(void) __dom("lib") __entry __perm("default", read);
long lib_secret(void) {
  char *p = malloc(64);
  memcpy(p, "lib's secret", 13);
  return (long)p;
}

int main(void) {
  const char *p = (const char *)lib_secret();
  uintptr_t heap = (uintptr_t)dom_heap(dipc_domain_named("lib"));
  printf("lib's block: %s\n", (uintptr_t)p - heap < DIPC_HEAP_STRIDE
                                  ? "in lib's heap"
                                  : "elsewhere");
  fflush(stdout);
  printf("main read: %.12s\n", p);
  return 0;
}
