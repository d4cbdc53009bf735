// A program compiled with -fdipc-sfi runs under `sfi` when no backend is
// asked for, with or without protection keys: its checks read the running
// domain and the rights in runtime memory, which protection keys keep from
// every domain, so under `mpk` (the default where keys work) it crashed at
// its first check. Asked for `mpk`, it is refused with the reason.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run %t.sfi 2>&1 | FileCheck %s
// RUN: not %dipc-bin-dir/dipc-run --backend=mpk %t.sfi 2>&1 | FileCheck %s --check-prefix=MPK
// CHECK: backend sfi, worker answered 42
// MPK: dipc: backend `mpk` cannot run a program compiled with -fdipc-sfi: its checks read the runtime's state, which protection keys keep from every domain; run it with --backend=sfi, or build it without -fdipc-sfi for mpk: refused
// MPK-NOT: answered
#include <dipc.h>
#include <dipc/rt.h>
#include <stdio.h>

int answer(int x) __dom("worker") __entry { return x + 1; }

int main(void) {
  int r = answer(41);
  printf("backend %s, worker answered %d\n", dipc_backend(), r);
  return 0;
}
