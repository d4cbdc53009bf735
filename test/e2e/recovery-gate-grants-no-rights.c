// The recovery gate the loader's signal handlers call leaves with the
// default domain's rights only for a caller that could already write the
// default domain's memory (a signal handler, under the kernel's signal
// PKRU). A domain that calls it directly, with or without a context,
// keeps its own rights: reading the default domain's secret afterwards
// still faults under mpk, and its caller sees DIPC_EFAULT; a forged
// context recovers nothing. Control: with `--backend=none` the read
// succeeds. Under sfi (-fdipc-sfi) the same: with or without a context,
// the domain's read of the secret still faults and its caller sees
// DIPC_EFAULT.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t forged 2>&1 | FileCheck %s --check-prefix=MPK %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi forged 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi forged 2>&1 | FileCheck %s --check-prefixes=NONE,NONE-FORGED
// MPK: without context: returned 0, faulted 1
// MPK-NEXT: with a forged context: returned 0, faulted 1
// NONE: without context: returned 4242, faulted 0
// NONE-FORGED-NEXT: with a forged context: returned 4242, faulted 0
#include <dipc.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>

static long secret = 4242; // default domain

typedef int (*recover_fn)(void *);

// Calls the gate through a pointer (db cannot use the PLT), then reads.
long escalate(recover_fn recover, void *context, const long *target)
    __dom("db") __entry {
  recover(context);
  return *(const volatile long *)target;
}

int __dipc_recover_from_fault(void *ucontext);

int main(int argc, char **argv) {
  static ucontext_t forged; // a context that claims nothing
  memset(&forged, 0, sizeof forged);
  long v = escalate(__dipc_recover_from_fault, NULL, &secret);
  printf("without context: returned %ld, faulted %d\n", v,
         dipc_errno == DIPC_EFAULT);
  if (argc < 2 || strcmp(argv[1], "forged") != 0)
    return 0;
  v = escalate(__dipc_recover_from_fault, &forged, &secret);
  printf("with a forged context: returned %ld, faulted %d\n", v,
         dipc_errno == DIPC_EFAULT);
  return 0;
}
