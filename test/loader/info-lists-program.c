// dipc-run --info prints the backend, domains, entries, imports and grants
// the loader set up, for each backend.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --info %t 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --info --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// CHECK: dipc: backend {{mpk|none}}
// CHECK-DAG: dipc: domain store: 2 pages, protection key {{[0-9]+}}
// CHECK-DAG: dipc: entry put in store: 2 int + 0 vector args, 0 stack bytes, 1 int + 0 vector results; policy reg_integrity
// CHECK-DAG: dipc: import put from default to store (proxy requested on first call); policy reg_confidentiality
// CHECK-DAG: dipc: grant store -> default: read
// CHECK: put=7
// NONE: dipc: backend none (isolation NOT enforced)
#include <dipc.h>
#include <stdio.h>

static int cells[16] __dom("store");
int put(int at, int value) __dom("store") __entry __iso_callee(reg_integrity)
    __perm("default", read) {
  cells[at & 15] = value;
  return value;
}
int main(void) __iso_caller(reg_confidentiality) {
  printf("put=%d\n", put(3, 7));
  return 0;
}
