// A call through an entry's address with arguments on the stack (eight
// integers and a 64-byte struct by value): the anycall proxy copies them to
// the callee's stack from whichever domain calls the pointer. From the
// entry's own domain the caller runs on the very stack its callee gets; the
// callee's frames must then start below what the proxy saved of the
// caller's registers (rcx, rdx): copying the arguments there once
// overwrote the caller's third and fourth arguments (c and d came out
// wrong). Every argument is a distinct digit, so a lost, swapped or stale
// one changes the result.
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 %s -o %t.sj0
// RUN: %dipc-bin-dir/dipc-run %t.sj0 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sj0 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O2 %s -o %t.sj2
// RUN: %dipc-bin-dir/dipc-run %t.sj2 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sj2 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O1 %s -o %t.try1
// RUN: %dipc-bin-dir/dipc-run %t.try1 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O3 %s -o %t.try3
// RUN: %dipc-bin-dir/dipc-run %t.try3 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -Os %s -o %t.s
// RUN: %dipc-bin-dir/dipc-run %t.s 2>&1 | FileCheck %s
// Entries' addresses under -fdipc-sfi (anycall stubs: the call check
// allows them by the runtime's anycall table).
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s
// CHECK: main through the pointer: 987654321 struct 36, errno 0, kcs 0
// CHECK-NEXT: lib through the pointer: 987654321 struct 36, errno 0, kcs 0
// CHECK-NEXT: app through its own entry's pointer: 987654321 struct 36, errno 0, kcs 0
#include <dipc.h>
#include <dipc/rt.h>
#include <stdio.h>

struct block {
  long w[8];
};

typedef long wide_fn(long, long, long, long, long, long, long, long,
                     struct block);

// Digits a..h, then the struct's words summed (1+...+8 = 36) times 10^9.
long wide(long a, long b, long c, long d, long e, long f, long g, long h,
          struct block s) __dom("app") __entry;
long wide(long a, long b, long c, long d, long e, long f, long g, long h,
          struct block s) {
  long sum = 0;
  for (int i = 0; i < 8; i++)
    sum += s.w[i];
  return a + 10 * b + 100 * c + 1000 * d + 10000 * e + 100000 * f +
         1000000 * g + 10000000 * h + 100000000 * 9 + sum * 1000000000L;
}

// The struct filled one volatile word at a time: an initializer is a
// memcpy from a constant at -O0 (a libc call through the default domain's
// GOT) and a vectorised loop loads constant vectors from the default
// domain's .rodata at -Os, which lib and app cannot read under mpk.
#define CALL_WIDE(fn)                                                          \
  ({                                                                           \
    struct block s;                                                            \
    volatile long word;                                                        \
    for (int i = 0; i < 8; i++)                                                \
      s.w[i] = (word = i + 1, word);                                           \
    (fn)(1, 2, 3, 4, 5, 6, 7, 8, s);                                           \
  })

long lib_call(wide_fn *fn) __dom("lib") __entry { return CALL_WIDE(fn); }

long app_self(void) __dom("app") __entry {
  wide_fn *volatile fn = wide;
  return CALL_WIDE(fn);
}

static void report(const char *what, long got) {
  int err = dipc_errno;
  printf("%s: %ld struct %ld, errno %d, kcs %ld\n", what, got % 1000000000L,
         got / 1000000000L, err, dipc_kcs_depth());
}

int main(void) {
  wide_fn *volatile fn = wide;
  report("main through the pointer", CALL_WIDE(fn));
  report("lib through the pointer", lib_call(wide));
  report("app through its own entry's pointer", app_self());
  return 0;
}
