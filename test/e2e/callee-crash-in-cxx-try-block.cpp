// A callee crash (SIGSEGV) under a call inside a C++ try block (an invoke:
// it goes through the entry's thunk) is recovered at every optimisation
// level, with either recovery style: the call yields 0 with dipc_errno ==
// DIPC_EFAULT and an empty KCS, the fault never becomes a C++ exception
// (the catch does not run), and the next call works. Try style unwinds
// from the thunk's call site on its stack, which must be aligned.
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=try -O0 %s -o %t.try0
// RUN: %dipc-bin-dir/dipc-run %t.try0 2>&1 | FileCheck %s
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=try -O1 %s -o %t.try1
// RUN: %dipc-bin-dir/dipc-run %t.try1 2>&1 | FileCheck %s
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=try -O2 %s -o %t.try2
// RUN: %dipc-bin-dir/dipc-run %t.try2 2>&1 | FileCheck %s
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=try -O3 %s -o %t.try3
// RUN: %dipc-bin-dir/dipc-run %t.try3 2>&1 | FileCheck %s
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=try -Os %s -o %t.trys
// RUN: %dipc-bin-dir/dipc-run %t.trys 2>&1 | FileCheck %s
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=setjmp -O0 %s -o %t.sj0
// RUN: %dipc-bin-dir/dipc-run %t.sj0 2>&1 | FileCheck %s
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=setjmp -O2 %s -o %t.sj2
// RUN: %dipc-bin-dir/dipc-run %t.sj2 2>&1 | FileCheck %s
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=setjmp -Os %s -o %t.sjs
// RUN: %dipc-bin-dir/dipc-run %t.sjs 2>&1 | FileCheck %s
// CHECK: crash in a try block: returned 0, dipc_errno 14, kcs depth 0, caught 0
// CHECK-NEXT: again: returned 7, dipc_errno 0, text 0.25
#include "Inputs/aligned-callers.inc"

static int caught;

// The one call that may throw is the cross-domain one: an invoke.
__attribute__((noinline)) static long in_try(long how, struct report *r) {
  try {
    return probe(how, r);
  } catch (...) {
    ++caught;
    return -1;
  }
}

int main(int argc, char **) {
  long how = argc - 1; // 0
  struct report r = {-1, -1, "none"};
  long got = in_try(how + 1, &r);
  printf("crash in a try block: returned %ld, dipc_errno %d, kcs depth %ld, "
         "caught %d\n",
         got, dipc_errno, dipc_kcs_depth(), caught);
  got = in_try(how, &r);
  printf("  again: returned %ld, dipc_errno %d, text %s\n", got, dipc_errno,
         r.text);
  fflush(stdout);
  return 0;
}
