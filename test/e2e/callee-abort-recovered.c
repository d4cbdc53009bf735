// abort(), a failed assert() and int3 (SIGABRT, SIGTRAP) in a callee are
// crashes of the callee like SIGSEGV: the call returns 0 with dipc_errno
// DIPC_EFAULT, the caller goes on, and the callee domain stays usable.
// RUN: %dipc-clang -fdipc -O0 %s -o %t.o0
// RUN: %dipc-clang -fdipc -O2 %s -o %t.o2
// RUN: %dipc-clang -fdipc -O2 -fdipc-recovery=try %s -o %t.try
// RUN: %dipc-bin-dir/dipc-run %t.o0 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run %t.o2 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run %t.try 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.o2 2>&1 | FileCheck %s
// CHECK: abort: 0, dipc_errno 14; then 42, dipc_errno 0
// CHECK: assert: 0, dipc_errno 14; then 42, dipc_errno 0
// CHECK: int3: 0, dipc_errno 14; then 42, dipc_errno 0
// CHECK: caller survived 3 of 3
#undef NDEBUG
#include <assert.h>
#include <dipc.h>
#include <stdio.h>
#include <stdlib.h>

long work(long how, long x) __dom("lib") __entry __perm("default", write) {
  if (how == 1)
    abort();
  if (how == 2)
    assert(x < 0 && "the callee's own check");
  if (how == 3)
    __builtin_debugtrap();
  return 2 * x;
}

int main(void) {
  static const char *const names[] = {"", "abort", "assert", "int3"};
  int survived = 0;
  for (long how = 1; how <= 3; ++how) {
    long r = work(how, 5);
    int err = dipc_errno;
    long again = work(0, 21);
    printf("%s: %ld, dipc_errno %d; then %ld, dipc_errno %d\n", names[how], r,
           err, again, dipc_errno);
    fflush(stdout);
    survived += r == 0 && err == DIPC_EFAULT && again == 42;
  }
  printf("caller survived %d of 3\n", survived);
  return survived == 3 ? 0 : 1;
}
