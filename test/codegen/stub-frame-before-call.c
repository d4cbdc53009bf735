// The frame (and the alignment it brings) is set up before the stub's call
// on every path: in a leaf wrapper whose only call is the stub, the last
// CFA offset before the call is a multiple of 16, so rsp is 16-byte
// aligned there. Shrink-wrapping used to sink the prologue into the
// try-style landing pad (the only block with an ordinary call), leaving
// `mov slot, %r11; call *%r11; ret`. The thunk (which a caller that needs
// a frame pointer calls) has the same shape.
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O0 -S -o - %s | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O1 -S -o - %s | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 -S -o - %s | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O3 -S -o - %s | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -Os -S -o - %s | FileCheck %s
#include <dipc.h>

int db_exec(const char *s) __dom("db") __entry;

// CHECK-LABEL: run:
// CHECK: .cfi_def_cfa_offset {{(16|32|48|64|80|96|112|128)$}}
// CHECK-NOT: .cfi_def_cfa_offset
// CHECK: # dipc caller stub: db_exec
// CHECK-NEXT: callq *%r11
__attribute__((noinline)) int run(const char *s) { return db_exec(s); }

// CHECK-LABEL: __dipc_thunk.default.00.db_exec:
// CHECK: .cfi_def_cfa_offset {{(16|32|48|64|80|96|112|128)$}}
// CHECK-NOT: .cfi_def_cfa_offset
// CHECK: # dipc caller stub: db_exec
// CHECK-NEXT: callq *%r11
int run_vla(const char *s, int n) {
  volatile char buf[n];
  buf[0] = 0;
  return db_exec(s) + buf[0];
}
