// P4 across objects: the caller's translation unit declares the entry with
// another prototype than the one it was registered with. The runtime
// refuses the proxy request at the import's first call (not at start: the
// program runs until then), and the process stops with status 78 naming
// the import. With matching prototypes the same program runs.
// RUN: %dipc-clang -fdipc -O2 -DCALLEE -c %s -o %t.callee.o
// RUN: %dipc-clang -fdipc -O2 -DWRONG_PROTOTYPE %s %t.callee.o -o %t.wrong
// RUN: sh -c '"$0" "$1"; echo "status $?"' %dipc-bin-dir/dipc-run %t.wrong > %t.out 2>&1; FileCheck %s < %t.out
// RUN: %dipc-clang -fdipc -O2 %s %t.callee.o -o %t.right
// RUN: %dipc-bin-dir/dipc-run %t.right 2>&1 | FileCheck %s --check-prefix=RIGHT
// CHECK: main started
// CHECK-NEXT: dipc: cannot resolve entry 'scale' of domain 'db' called from domain 'default': the caller's prototype does not match the entry's signature (P4)
// CHECK-NOT: scale returned
// CHECK: status 78
// RIGHT: main started
// RIGHT-NEXT: scale returned 12
#include <dipc.h>
#include <stdio.h>

#ifdef CALLEE
long scale(long v, long by) __dom("db") __entry { return v * by; }
#else
#ifdef WRONG_PROTOTYPE
long scale(long v, long by, double extra) __dom("db") __entry;
#define CALL scale(3, 4, 1.0)
#else
long scale(long v, long by) __dom("db") __entry;
#define CALL scale(3, 4)
#endif

int main(void) {
  printf("main started\n");
  fflush(stdout);
  printf("scale returned %ld\n", CALL);
  return 0;
}
#endif
