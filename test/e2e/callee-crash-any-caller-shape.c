// A callee crashing with SIGSEGV is recovered whatever the shape of its
// caller, at every optimisation level, with either recovery style: the
// call yields 0 with dipc_errno == DIPC_EFAULT and an empty KCS, and the
// next call works. Try style raises the fault from the caller's call site
// on the caller's stack, so a caller stub without an aligned frame (a leaf
// wrapper at -O1 and above) made libgcc's unwinder fault (movaps) and the
// process die. Shapes as in stack-aligned-at-callee-entry-try.c.
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O0 %s -o %t.try0
// RUN: %dipc-bin-dir/dipc-run %t.try0 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O1 %s -o %t.try1
// RUN: %dipc-bin-dir/dipc-run %t.try1 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 %s -o %t.try2
// RUN: %dipc-bin-dir/dipc-run %t.try2 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O3 %s -o %t.try3
// RUN: %dipc-bin-dir/dipc-run %t.try3 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -Os %s -o %t.trys
// RUN: %dipc-bin-dir/dipc-run %t.trys 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 %s -o %t.sj0
// RUN: %dipc-bin-dir/dipc-run %t.sj0 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O2 %s -o %t.sj2
// RUN: %dipc-bin-dir/dipc-run %t.sj2 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -Os %s -o %t.sjs
// RUN: %dipc-bin-dir/dipc-run %t.sjs 2>&1 | FileCheck %s
// CHECK: leaf wrapper: returned 0, dipc_errno 14, kcs depth 0
// CHECK-NEXT: again: returned 7, dipc_errno 0, text 0.25
// CHECK-NEXT: function pointer: returned 0, dipc_errno 14, kcs depth 0
// CHECK-NEXT: again: returned 7, dipc_errno 0, text 0.25
// CHECK-NEXT: variable-sized local: returned 0, dipc_errno 14, kcs depth 0
// CHECK-NEXT: again: returned 7, dipc_errno 0, text 0.25
// CHECK-NEXT: over-aligned local: returned 0, dipc_errno 14, kcs depth 0
// CHECK-NEXT: again: returned 7, dipc_errno 0, text 0.25
#include "Inputs/aligned-callers.inc"

static void crashed(const char *shape, long got) {
  printf("%s: returned %ld, dipc_errno %d, kcs depth %ld\n", shape, got,
         dipc_errno, dipc_kcs_depth());
  fflush(stdout);
}

static void again(long got, const struct report *r) {
  printf("  again: returned %ld, dipc_errno %d, text %s\n", got, dipc_errno,
         r->text);
  fflush(stdout);
}

int main(int argc, char **argv) {
  (void)argv;
  long segv = argc; // 1
  struct report r = {-1, -1, "none"};
  crashed("leaf wrapper", leaf(segv, &r));
  again(leaf(segv - 1, &r), &r);
  struct report f = {-1, -1, "none"};
  crashed("function pointer", through(segv, &f));
  again(through(segv - 1, &f), &f);
  struct report v = {-1, -1, "none"};
  crashed("variable-sized local", with_vla(segv, &v, argc + 15));
  again(with_vla(segv - 1, &v, argc + 15), &v);
  struct report o = {-1, -1, "none"};
  crashed("over-aligned local", with_overaligned(segv, &o));
  again(with_overaligned(segv - 1, &o), &o);
  return 0;
}
