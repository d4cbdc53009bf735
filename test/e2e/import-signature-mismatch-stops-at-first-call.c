// P4 across objects: the caller's program declares the entry with another
// prototype than the one its shared library registered it with. The
// runtime refuses the proxy request at the import's first call (not at
// start: the program runs until then), and the process stops with status
// 78 naming the import. With matching prototypes the same program runs.
// Linked into one object, the mismatch is the validator's to find: the
// program is refused before it starts, by dipc-run and dipc-readelf alike.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %dipc-clang -fdipc -O2 -fPIC -shared -DCALLEE %s -o %t.dir/libcallee.so
// RUN: %dipc-clang -fdipc -O2 -DWRONG_PROTOTYPE %s -L%t.dir -lcallee -Wl,-rpath,%t.dir -o %t.wrong
// RUN: sh -c '"$0" "$1"; echo "status $?"' %dipc-bin-dir/dipc-run %t.wrong > %t.out 2>&1; FileCheck %s < %t.out
// RUN: %dipc-clang -fdipc -O2 %s -L%t.dir -lcallee -Wl,-rpath,%t.dir -o %t.right
// RUN: %dipc-bin-dir/dipc-run %t.right 2>&1 | FileCheck %s --check-prefix=RIGHT
// RUN: %dipc-clang -fdipc -O2 -DCALLEE -c %s -o %t.callee.o
// RUN: %dipc-clang -fdipc -O2 -DWRONG_PROTOTYPE %s %t.callee.o -o %t.one
// RUN: sh -c '"$0" "$1"; echo "status $?"' %dipc-bin-dir/dipc-run %t.one > %t.one.out 2>&1; FileCheck %s --check-prefix=ONE < %t.one.out
// RUN: not %dipc-readelf %t.one 2>&1 | FileCheck %s --check-prefix=ONE-READELF
// ONE: refusing {{.*}}.one: import record 0 ('scale'): signature: differs from entry record 0's (P4)
// ONE-NOT: main started
// ONE-READELF: dipc-readelf: error: {{.*}}.one: import record 0 ('scale'): signature: differs from entry record 0's (P4)
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
