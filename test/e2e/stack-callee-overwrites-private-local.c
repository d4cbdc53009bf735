// Stack integrity, non-escaping locals: `victim` keeps a balance in a local
// array whose address never leaves it, and lends its callee another buffer
// (which lives on the unsafe stack). The callee `evil` (it may read the
// default domain, not write it) scans up from its caller's stack pointer
// for the balance and zeroes it. Under mpk, and under sfi (the -fdipc-sfi
// twin: the write to the caller's stack faults in the compiled-in check),
// the call returns DIPC_EFAULT and the balance is intact, with or without
// __iso_caller(stack_integrity) (stacks are isolated by default): both
// print the MPK lines. The lent buffer is the callee's to write. Negative
// control: `--backend=none` lets the write land, for both binaries.
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
// MPK: stack_integrity: evil returned 0 (dipc_errno 14); lent 'ok'; balance 1000 1001 1002 1003
// MPK-NEXT: no stack property: evil returned 0 (dipc_errno 14); lent 'ok'; balance 1000 1001 1002 1003
// NONE: stack_integrity: evil returned 1 (dipc_errno 0); lent 'ok'; balance 0 1001 1002 1003
// NONE-NEXT: no stack property: evil returned 1 (dipc_errno 0); lent 'ok'; balance 0 1001 1002 1003
#include <dipc.h>
#include <stdio.h>

/* The stack pointer of its caller at the call: its own frame address plus
 * the return address and saved frame pointer (no inline assembly, which
 * -fdipc-sfi refuses). */
__attribute__((noinline)) static long stack_pointer(void) {
  return (long)__builtin_frame_address(0) + 16;
}

#define MARK 0x7e11e5000000L

long evil(long sp, char *lent) __dom("evil") __entry __perm("default", read) {
  lent[0] = 'o', lent[1] = 'k', lent[2] = 0; /* the buffer it was lent */
  volatile long *p = (volatile long *)sp;
  for (long i = 0; i < 64; ++i)
    if (p[i] == MARK + 1000) { /* the balance's first element */
      p[i] = 0;
      return 1;
    }
  return 0;
}

/* balance is only read and written through indexes the compiler cannot
 * see (volatile), so it stays an array in victim's frame; its address
 * never escapes. */
#define VICTIM(name, policy)                                                   \
  __attribute__((noinline)) static void name(const char *what) policy {      \
    long balance[4];                                                           \
    for (volatile int i = 0; i < 4; ++i)                                       \
      balance[i] = MARK + 1000 + i;                                            \
    char lent[16] = "";                                                        \
    long sp = stack_pointer();                                                 \
    long r = evil(sp, lent);                                                   \
    printf("%s: evil returned %ld (dipc_errno %d); lent '%s'; balance", what,  \
           r, dipc_errno, lent);                                               \
    for (volatile int i = 0; i < 4; ++i)                                       \
      printf(" %ld", balance[i] ? balance[i] - MARK : 0);                      \
    printf("\n");                                                              \
  }
VICTIM(with_integrity, __iso_caller(stack_integrity))
VICTIM(by_default, )

int main(void) {
  with_integrity("stack_integrity");
  by_default("no stack property");
  return 0;
}
