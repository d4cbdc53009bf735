// A security violation the proxies detect stops the process even when a
// callee commits it: grantless domain zeta calls the proxy of main's
// import of vault_get (main hands it the address its import slot holds),
// for which only main holds the call grant. The proxy stops the process
// (SIGABRT) before vault runs; the loader, which takes an abort in a
// callee for a crash of the callee, must not resume main as if zeta had
// merely crashed (it did: main went on with DIPC_EFAULT). Control: under
// `none` no grant is checked and zeta's call returns vault's value.
// RUN: %clang -O2 -c %S/Inputs/import-slot-of.c -o %t.slot.o
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s %t.slot.o -o %t.sfi
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %if pku %{ %dipc-clang -fdipc -O2 %s %t.slot.o -o %t && not --crash %dipc-bin-dir/dipc-run --backend=mpk %t 2>&1 | FileCheck %s --check-prefix=STOPPED %}
// STOPPED: main called vault_get: 42
// STOPPED-NEXT: dipc: security violation: a domain called a proxy without a call grant to it
// STOPPED-NOT: zeta's call
// STOPPED-NOT: main goes on
// NONE: main called vault_get: 42
// NONE: zeta's call returned 42, dipc_errno 0
// NONE-NEXT: main goes on
#include <dipc.h>
#include <stdio.h>

long vault_get(void) __dom("vault") __entry { return 42; }

/* zeta, granted nothing: calls the proxy main was given. */
long zeta_try(long (*proxy)(void)) __dom("zeta") __entry { return proxy(); }

void *import_slot_value(void); /* Inputs/import-slot-of.c */

int main(void) {
  printf("main called vault_get: %ld\n", vault_get());
  fflush(stdout);
  long r = zeta_try((long (*)(void))import_slot_value());
  printf("zeta's call returned %ld, dipc_errno %d\n", r, dipc_errno);
  printf("main goes on\n");
  return 0;
}
