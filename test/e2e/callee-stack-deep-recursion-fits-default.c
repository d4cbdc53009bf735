// The callee stack (the stack a callee of domain db runs on) is large
// enough by default for a legal deep recursion: `depth` recurses 900 deep
// inside db with about 1 KiB per frame (about 1 MiB in all, four times the
// old fixed 256 KiB), with and without __iso_caller(stack_confidentiality),
// and returns the right sum. With `--callee-stack=db=64K` the same call
// overflows db's callee stack: it fails with DIPC_EFAULT, the runtime says
// which domain's stack overflowed and which setting to raise, and a later
// shallow call into db works. A larger `--callee-stack=db=2M` fits again,
// and a setting for every domain (`--callee-stack=96K`) overflows too.
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 %s -o %t.sj0
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 %s -o %t.try2
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -Os %s -o %t.sjs
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sj0 2>&1 | FileCheck %s --check-prefix=FITS
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.try2 2>&1 | FileCheck %s --check-prefix=FITS
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sjs 2>&1 | FileCheck %s --check-prefix=FITS
// RUN: %dipc-bin-dir/dipc-run --backend=none --callee-stack=db=2M %t.try2 2>&1 | FileCheck %s --check-prefix=FITS
// RUN: %dipc-bin-dir/dipc-run --backend=none --callee-stack=db=64K %t.sj0 2>%t.err | FileCheck %s --check-prefix=SMALL
// RUN: FileCheck %s --check-prefix=MSG < %t.err
// RUN: %dipc-bin-dir/dipc-run --backend=none --callee-stack=db=64K %t.try2 2>%t.err | FileCheck %s --check-prefix=SMALL
// RUN: FileCheck %s --check-prefix=MSG < %t.err
// RUN: %dipc-bin-dir/dipc-run --backend=none --callee-stack=96K %t.sjs 2>%t.err | FileCheck %s --check-prefix=SMALL
// RUN: FileCheck %s --check-prefix=MSG96 < %t.err
// FITS: plain: depth 900 -> 404550 (dipc_errno 0)
// FITS-NEXT: stack_confidentiality: depth 900 -> 404550 (dipc_errno 0)
// FITS-NEXT: shallow: depth 10 -> 45 (dipc_errno 0)
// SMALL: plain: depth 900 -> 0 (dipc_errno 14)
// SMALL-NEXT: stack_confidentiality: depth 900 -> 0 (dipc_errno 14)
// SMALL-NEXT: shallow: depth 10 -> 45 (dipc_errno 0)
// MSG: dipc: callee stack overflow in domain 'db': the call used up its 64 KiB callee stack and fails with DIPC_EFAULT; raise the size with dipc-run --callee-stack=db=SIZE
// MSG96: dipc: callee stack overflow in domain 'db': the call used up its 96 KiB callee stack and fails with DIPC_EFAULT; raise the size with dipc-run --callee-stack=db=SIZE
#include <dipc.h>
#include <stdio.h>

/* About 1 KiB of frame per level on the callee stack: the array, indexed
 * by a run-time value, is read after the call (it lives across it) and
 * never escapes (escaping locals go on the unsafe stack). */
__attribute__((noinline)) __dom("db") long walk(long n) {
  volatile char frame[1000];
  for (int i = 0; i < 1000; i += 100)
    frame[(i + n) % 1000] = 1;
  if (n == 0)
    return 0;
  long below = walk(n - 1);
  return (below ^ (frame[n % 1000] - 1)) + (n - 1);
}

__attribute__((noinline)) long depth(long n) __dom("db") __entry {
  return walk(n);
}

static void report(const char *how, long n, long got) {
  int err = dipc_errno;
  printf("%s: depth %ld -> %ld (dipc_errno %d)\n", how, n, got, err);
}

__attribute__((noinline)) void plain(long n) { report("plain", n, depth(n)); }
__attribute__((noinline)) void confidential(long n)
    __iso_caller(stack_confidentiality) {
  report("stack_confidentiality", n, depth(n));
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  plain(900);
  confidential(900);
  report("shallow", 10, depth(10));
  return 0;
}
