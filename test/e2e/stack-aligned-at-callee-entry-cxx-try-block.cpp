// A call inside a C++ try block (an invoke: it goes through the entry's
// thunk) gives the callee a SysV-aligned stack with try style at every
// optimisation level; see stack-aligned-at-callee-entry-try.c for what the
// callee checks. (setjmp style: the same thunk as for a function pointer,
// stack-aligned-at-callee-entry-setjmp.c; kept out to stay well inside
// the VM lane's 300 s per test.)
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=try -O0 %s -o %t.try0
// RUN: %dipc-bin-dir/dipc-run %t.try0 2>&1 | FileCheck %s
// RUN: env DIPC_SHARED_STACKS=1 %dipc-bin-dir/dipc-run --backend=none %t.try0 2>&1 | FileCheck %s
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=try -O1 %s -o %t.try1
// RUN: %dipc-bin-dir/dipc-run %t.try1 2>&1 | FileCheck %s
// RUN: env DIPC_SHARED_STACKS=1 %dipc-bin-dir/dipc-run --backend=none %t.try1 2>&1 | FileCheck %s
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=try -O2 %s -o %t.try2
// RUN: %dipc-bin-dir/dipc-run %t.try2 2>&1 | FileCheck %s
// RUN: env DIPC_SHARED_STACKS=1 %dipc-bin-dir/dipc-run --backend=none %t.try2 2>&1 | FileCheck %s
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=try -O3 %s -o %t.try3
// RUN: %dipc-bin-dir/dipc-run %t.try3 2>&1 | FileCheck %s
// RUN: env DIPC_SHARED_STACKS=1 %dipc-bin-dir/dipc-run --backend=none %t.try3 2>&1 | FileCheck %s
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=try -Os %s -o %t.trys
// RUN: %dipc-bin-dir/dipc-run %t.trys 2>&1 | FileCheck %s
// RUN: env DIPC_SHARED_STACKS=1 %dipc-bin-dir/dipc-run --backend=none %t.trys 2>&1 | FileCheck %s
// CHECK: in a try block: returned 7, frame%16 0, vector 6, text 0.25, dipc_errno 0
#include "Inputs/aligned-callers.inc"

// The one call that may throw is the cross-domain one: an invoke.
__attribute__((noinline)) static long in_try(long how, struct report *r) {
  try {
    return probe(how, r);
  } catch (...) {
    return -1;
  }
}

int main(int argc, char **) {
  long how = argc - 1; // 0
  struct report r = {-1, -1, "none"};
  long got = in_try(how, &r);
  printf("in a try block: returned %ld, frame%%16 %ld, vector %ld, text %s, "
         "dipc_errno %d\n",
         got, r.frame_mod16, r.vec_sum, r.text, dipc_errno);
  fflush(stdout);
  return 0;
}
