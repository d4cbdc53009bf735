// A program whose code contains a WRPKRU (or WRFSBASE) byte sequence could
// switch protection keys outside dIPC's gates: under mpk the loader refuses
// it before main runs, naming the instruction; `none` enforces nothing and
// runs it (negative control).
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: not %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-clang -fdipc -O2 -DGADGET='".byte 0xf3, 0x48, 0x0f, 0xae, 0xd0"' %s -o %t.fs
// RUN: not %dipc-bin-dir/dipc-run %t.fs 2>&1 | FileCheck %s --check-prefix=FS
// MPK: dipc-loader: refusing {{.*}}binary-with-wrpkru-refused.c.tmp: it contains a wrpkru instruction
// MPK-NOT: main ran
// FS: it contains a wrfsbase instruction
// NONE: main ran
#include <dipc.h>
#include <stdio.h>

#ifndef GADGET
#define GADGET ".byte 0x0f, 0x01, 0xef"
#endif

int lookup(int key) __dom("db") __entry { return key; }

// Never called: its bytes alone are the danger.
__attribute__((used, naked)) static void gadget(void) { __asm__(GADGET); }

int main(void) {
  printf("main ran: %d\n", lookup(1));
  return 0;
}
