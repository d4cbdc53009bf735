// A -fdipc program with domains started without the loader stops at once,
// before any constructor of the program or main runs, with exit status 78
// and a message naming dipc-run. Negative control: without -fdipc the same
// source runs unisolated.
// RUN: %dipc-clang -fdipc -O0 %s -o %t
// RUN: sh -c '"$0"; echo "status $?"' %t > %t.out 2>&1; FileCheck %s < %t.out
// RUN: %clang -I%dipc-include -O0 %s -o %t.plain && %t.plain | FileCheck %s --check-prefix=PLAIN
// CHECK: dipc: this program was built with -fdipc and must run under the dIPC loader
// CHECK-NOT: ran
// CHECK: status 78
// PLAIN: constructor ran
// PLAIN: main ran: 5
#include <dipc.h>
#include <stdio.h>

__attribute__((constructor)) static void early(void) { puts("constructor ran"); }
long five(void) __dom("calc") __entry { return 5; }
int main(void) {
  printf("main ran: %ld\n", five());
  return 0;
}
