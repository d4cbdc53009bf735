// A C caller (this file) of a C++ entry (Inputs/exception-callee.cpp) that
// throws: the call returns 0 with dipc_errno == DIPC_EEXCEPTION and the
// domain answers the next call, with both recovery styles. Negative
// control: a plain build terminates on the exception C cannot catch.
// RUN: %dipc-clangxx -fdipc -O2 -c %S/Inputs/exception-callee.cpp -o %t.callee.o
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 -c %s -o %t.sj.o
// RUN: %dipc-clangxx -fdipc %t.sj.o %t.callee.o -o %t.sj
// RUN: %dipc-bin-dir/dipc-run %t.sj 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 -c %s -o %t.try.o
// RUN: %dipc-clangxx -fdipc %t.try.o %t.callee.o -o %t.try
// RUN: %dipc-bin-dir/dipc-run %t.try 2>&1 | FileCheck %s
// RUN: %clang --driver-mode=g++ -I%dipc-include -O2 -x c %s -x c++ %S/Inputs/exception-callee.cpp -o %t.plain
// RUN: not --crash %t.plain 2>&1 | FileCheck %s --check-prefix=PLAIN
// CHECK: ok: returned 7, dipc_errno 0
// CHECK-NEXT: throw: returned 0, dipc_errno 131
// CHECK-NEXT: again: returned 7, dipc_errno 0
// PLAIN: ok: returned 7
// PLAIN-NOT: throw: returned
#include <dipc.h>
#include <stdio.h>

long cxx_work(int how) __dom("worker") __entry __perm("default", write);

int main(void) {
  long r = cxx_work(0);
  printf("ok: returned %ld, dipc_errno %d\n", r, dipc_errno);
  fflush(stdout);
  r = cxx_work(1);
  printf("throw: returned %ld, dipc_errno %d\n", r, dipc_errno);
  r = cxx_work(0);
  printf("again: returned %ld, dipc_errno %d\n", r, dipc_errno);
  return 0;
}
