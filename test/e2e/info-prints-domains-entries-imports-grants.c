// `dipc-run --info` prints the backend, every domain, entry (signature and
// policy), import (caller, callee, policy) and grant of a two-domain
// program before main runs (an entry's __iso_caller applies to its callers
// too); `none` says loudly that nothing is enforced. front's second page
// is its data page, which holds its import slot for store.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --info %t 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --info --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// CHECK: dipc: backend {{mpk|none}}
// CHECK-DAG: dipc: domain front: 2 pages, protection key {{-?[0-9]+}}
// CHECK-DAG: dipc: domain back: 2 pages, protection key {{-?[0-9]+}}
// CHECK-DAG: dipc: entry store in back: 1 int + 0 vector args, 0 stack bytes, 1 int + 0 vector results; policy reg_confidentiality
// CHECK-DAG: dipc: entry serve in front: 1 int + 0 vector args, 0 stack bytes, 1 int + 0 vector results; policy none
// CHECK-DAG: dipc: import store from front to back ({{.*}}); policy reg_integrity
// CHECK-DAG: dipc: import serve from default to front ({{.*}}); policy reg_integrity
// CHECK-DAG: dipc: grant front -> default: write
// CHECK: main: 42
// NONE: dipc: backend none (isolation NOT enforced)
#include <dipc.h>
#include <stdio.h>

static long cell __dom("back");
long store(long v) __dom("back") __entry __iso_callee(reg_confidentiality) {
  return cell = v;
}
long serve(long v) __dom("front") __entry __perm("default", write)
    __iso_caller(reg_integrity) {
  return store(v);
}
int main(void) {
  printf("main: %ld\n", serve(42));
  return 0;
}
