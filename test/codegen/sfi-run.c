// The checks that -fdipc-sfi compiles in decide as sfi.h says, run against
// a stand-in for the backend (Inputs/sfi-fake-backend.c; the program is
// linked without libdipc): own pages (tag 0) are read and written on the
// fast path, a read-only tag (7) is read but not written, a tag without
// rights (9) is neither, an access that straddles two pages goes to the
// slow path, which checks both (the second one denied: stopped). The same
// at -O0, and through the preserve_most wrapper of the slow path. Control:
// without -fdipc-sfi nothing stops the forbidden accesses.
// RUN: %clang -O2 -I %dipc-include -c %S/Inputs/sfi-fake-backend.c -o %t.fake.o
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -c %s -o %t.o
// RUN: %clang %t.o %t.fake.o -o %t
// RUN: %t 0 | FileCheck %s --check-prefix=OK
// RUN: not %t 1 | FileCheck %s --check-prefix=WRITE
// RUN: not %t 2 | FileCheck %s --check-prefix=READ
// RUN: not %t 3 | FileCheck %s --check-prefix=STRADDLE
// RUN: %dipc-clang -fdipc -fdipc-sfi -O0 -c %s -o %t.o0.o
// RUN: %clang %t.o0.o %t.fake.o -o %t.o0
// RUN: %t.o0 0 | FileCheck %s --check-prefix=OK
// RUN: not %t.o0 1 | FileCheck %s --check-prefix=WRITE
// RUN: not %t.o0 3 | FileCheck %s --check-prefix=STRADDLE
// RUN: %dipc-clang -fdipc -fdipc-sfi -mllvm -dipc-sfi-preserve-most -O2 -c %s -o %t.pm.o
// RUN: %clang %t.pm.o %t.fake.o -o %t.pm
// RUN: %t.pm 0 | FileCheck %s --check-prefix=OK
// RUN: not %t.pm 1 | FileCheck %s --check-prefix=WRITE
// RUN: not %t.pm 3 | FileCheck %s --check-prefix=STRADDLE
// RUN: %dipc-clang -fdipc -O2 -c %s -o %t.plain.o
// RUN: %clang %t.plain.o %t.fake.o -o %t.plain
// RUN: %t.plain 1 | FileCheck %s --check-prefix=UNCHECKED
// RUN: %t.plain 3 | FileCheck %s --check-prefix=UNCHECKED
// OK: own page: read 5, slow paths 0
// OK-NEXT: straddling own pages: slow paths 1
// OK-NEXT: read-only page: read 0, slow paths 1
// OK-NEXT: done
// WRITE: read-only page: read 0, slow paths 1
// WRITE-NEXT: fake: denied write of 4 at {{0x[0-9a-f]+}}000 (tag 7)
// WRITE-NOT: done
// READ: fake: denied read of 4 at {{0x[0-9a-f]+}}000 (tag 9)
// READ-NOT: done
// STRADDLE: fake: denied read of 8 at {{0x[0-9a-f]+}}ffc (tag 9)
// STRADDLE-NOT: done
// UNCHECKED: done
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fake_tag(void *p, uint16_t tag);
extern int slow_calls;

static char buf[3 * 4096] __attribute__((aligned(4096)));

__attribute__((noinline)) int rd(int *p) { return *p; }
__attribute__((noinline)) void wr(int *p, int v) { *p = v; }
__attribute__((noinline)) long rd8(char *p) {
  long v;
  memcpy(&v, p, 8); // an unaligned 8-byte load
  return v;
}

int main(int argc, char **argv) {
  int mode = argc > 1 ? atoi(argv[1]) : 0;
  wr((int *)buf, 5);
  printf("own page: read %d, slow paths %d\n", rd((int *)buf), slow_calls);
  volatile long sink = rd8(buf + 4092);
  printf("straddling own pages: slow paths %d\n", slow_calls);
  fake_tag(buf + 4096, 7);
  printf("read-only page: read %d, slow paths %d\n", rd((int *)(buf + 4096)),
         slow_calls);
  fflush(stdout);
  fake_tag(buf + 8192, 9);
  if (mode == 1)
    wr((int *)(buf + 4096), 1);
  if (mode == 2)
    sink = rd((int *)(buf + 8192));
  if (mode == 3)
    sink = rd8(buf + 8188);
  (void)sink;
  puts("done");
  return 0;
}
