// A callee domain reading a third domain it has no grant to faults under
// mpk; since the fault happens inside a cross-domain call it becomes
// DIPC_EFAULT for the caller, which goes on. Negative controls:
// `--backend=none` and no -fdipc hand the third domain's secret over.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=STOPPED %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=LEAK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=LEAK
// RUN: %clang -I%dipc-include -O2 %s -o %t.plain && %t.plain | FileCheck %s --check-prefix=LEAK
// STOPPED: spy got 0, dipc_errno 14
// STOPPED-NEXT: main goes on
// LEAK: spy got 4242, dipc_errno 0
#include <dipc.h>
#include <stdio.h>

static long pin __dom("bank") = 4242;
long *pin_address(void) __dom("bank") __entry { return &pin; }

// `spy` has no grant to `bank`.
long spy(long *p) __dom("spy") __entry { return *(volatile long *)p; }

int main(void) {
  long *p = pin_address();
  long got = spy(p);
  printf("spy got %ld, dipc_errno %d\n", got, dipc_errno);
  printf("main goes on\n");
  return 0;
}
