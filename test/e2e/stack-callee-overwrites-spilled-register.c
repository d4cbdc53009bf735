// Stack integrity, saved registers: `victim` keeps a value in a register
// across a cross-domain call; the setjmp-style stub (__builtin_setjmp)
// makes the register allocator save it on victim's stack around the call
// (at -O0 it is a stack slot anyway), and the callee-saved registers
// victim's prologue pushed sit there too. The callee `evil` (it may read
// the default domain, not write it) scans up from its caller's stack
// pointer and overwrites every saved copy of the value. Under mpk, and
// under sfi (the -fdipc-sfi twin: the compiled-in check refuses the write
// to the caller's stack), the write faults: the call returns DIPC_EFAULT
// and victim's value, hence its result, is intact (both print the MPK
// lines); a caller without any stack property is protected the same way
// (default stack isolation). Negative control: `--backend=none` lets the
// write land and victim returns the forged value, for both binaries.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=MPK %}
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-clang -fdipc -O0 %s -o %t.o0
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t.o0 2>&1 | FileCheck %s --check-prefix=MPK %}
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.o0 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-clang -fdipc -fdipc-sfi -O0 %s -o %t.o0.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.o0.sfi 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.o0.sfi 2>&1 | FileCheck %s --check-prefix=NONE
// MPK: stack_integrity: evil returned 0 (dipc_errno 14); victim kept 5afe5afe5afe5afe
// MPK-NEXT: no stack property: evil returned 0 (dipc_errno 14); victim kept 5afe5afe5afe5afe
// NONE: stack_integrity: evil returned 1 (dipc_errno 0); victim kept bad0bad0bad0bad0
// NONE-NEXT: no stack property: evil returned 1 (dipc_errno 0); victim kept bad0bad0bad0bad0
#include <dipc.h>
#include <stdio.h>

/* The stack pointer of its caller at the call: its own frame address plus
 * the return address and saved frame pointer (no inline assembly, which
 * -fdipc-sfi refuses). */
__attribute__((noinline)) static long stack_pointer(void) {
  return (long)__builtin_frame_address(0) + 16;
}

#define SAVED 0x5afe5afe5afe5afeL
#define FORGED ((long)0xbad0bad0bad0bad0UL)

static volatile long seed = SAVED;

long evil(long sp) __dom("evil") __entry __perm("default", read) {
  volatile long *p = (volatile long *)sp;
  long found = 0;
  for (long i = 0; i < 64; ++i)
    if (p[i] == SAVED) {
      p[i] = FORGED;
      found = 1;
    }
  return found;
}

#define VICTIM(name, policy)                                                   \
  __attribute__((noinline)) static long name(const char *what) policy {      \
    long keep = seed; /* live across the call: saved on victim's stack */    \
    long sp = stack_pointer();                                                 \
    long r = evil(sp);                                                         \
    printf("%s: evil returned %ld (dipc_errno %d); ", what, r, dipc_errno);    \
    return keep;                                                               \
  }
VICTIM(with_integrity, __iso_caller(stack_integrity, reg_integrity))
VICTIM(by_default, __iso_caller(reg_integrity))

int main(void) {
  printf("victim kept %lx\n", with_integrity("stack_integrity"));
  printf("victim kept %lx\n", by_default("no stack property"));
  return 0;
}
