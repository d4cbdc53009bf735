// Stack integrity, return addresses: the callee `evil` (which, like db in
// examples/web-db, may read the default domain but not write it) hunts for
// its caller's return address into main (it knows the program's code: the
// caller tells it where that is) and overwrites it with `pwned`.
// 1. Scanning up from the buffer its caller lends it (the `row` pattern):
//    escaping locals live on the unsafe stack, apart from return addresses,
//    so it finds none (it may run off the top of the unsafe stack and fault).
// 2. Scanning up from its caller's stack pointer (an attacker may know it:
//    ASLR is no protection boundary): under mpk it finds the return address
//    (it may read that stack) but the write faults, the call returns
//    DIPC_EFAULT and the caller returns to main as if nothing happened.
//    Under sfi (the -fdipc-sfi twin) the same: the compiled-in check
//    refuses the access to the caller's stack, and it prints the MPK lines.
// Negative controls: under `--backend=none` the write of step 2 lands and
// victim returns into pwned, for both binaries; without -fdipc step 1
// already finds it.
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
// RUN: %clang -I%dipc-include -O2 %s -o %t.plain && %t.plain | FileCheck %s --check-prefix=PLAIN
// MPK: from the lent buffer: 0 (dipc_errno {{0|14}})
// MPK-NEXT: from the caller's stack pointer: 0 (dipc_errno 14)
// MPK-NEXT: main: victim returned 7
// MPK-NOT: HIJACKED
// NONE: from the lent buffer: 0 (dipc_errno {{0|14}})
// NONE-NEXT: from the caller's stack pointer: 1 (dipc_errno 0)
// NONE-NEXT: HIJACKED: victim returned into pwned
// PLAIN: HIJACKED: victim returned into pwned
#include <dipc.h>
#include <stdio.h>
#include <unistd.h>

/* The stack pointer of its caller at the call: its own frame address plus
 * the return address and saved frame pointer (no inline assembly, which
 * -fdipc-sfi refuses). */
__attribute__((noinline)) static long stack_pointer(void) {
  return (long)__builtin_frame_address(0) + 16;
}

void pwned(void);

/* Replaces every word in [p, p + words) that holds the return address
 * `ret` by pwned's address; returns 1 if there was one. */
static long hijack(volatile long *p, long words, long ret) __dom("evil") {
  long found = 0;
  for (long i = 0; i < words; ++i)
    if (p[i] == ret) {
      p[i] = (long)pwned;
      found = 1;
    }
  return found;
}

long from_buffer(char *row, long ret) __dom("evil") __entry
    __perm("default", read) {
  return hijack((volatile long *)row, 64, ret);
}
long from_stack_pointer(long sp, long ret) __dom("evil") __entry {
  return hijack((volatile long *)sp, 64, ret);
}

__attribute__((noinline)) static int victim(void)
    __iso_caller(stack_integrity) {
  long ret = (long)__builtin_return_address(0);
  char row[64] = "row";
  long r = from_buffer(row, ret);
  printf("from the lent buffer: %ld (dipc_errno %d)\n", r, dipc_errno);
  long sp = stack_pointer();
  r = from_stack_pointer(sp, ret);
  printf("from the caller's stack pointer: %ld (dipc_errno %d)\n", r,
         dipc_errno);
  fflush(stdout);
  return 7;
}

__attribute__((force_align_arg_pointer)) void pwned(void) {
  printf("HIJACKED: victim returned into pwned\n");
  fflush(stdout);
  _exit(0);
}

int main(void) {
  int v = victim();
  printf("main: victim returned %d\n", v);
  return 0;
}
