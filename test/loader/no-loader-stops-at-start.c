// A -fdipc program with domains refuses to run unisolated without the
// loader, before main; the same source without -fdipc runs (control).
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: %clang -I%dipc-include -O2 %s -o %t.plain && %t.plain | FileCheck %s --check-prefix=PLAIN
// CHECK: dipc: this program was built with -fdipc and must run under the dIPC loader: dipc-run PROGRAM [ARGS...]
// CHECK-NOT: main ran
// PLAIN: main ran
#include <dipc.h>
#include <stdio.h>

int lookup(int key) __dom("db") __entry { return key; }
int main(void) {
  printf("main ran\n");
  return lookup(0);
}
