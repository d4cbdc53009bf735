// Stack confidentiality of private locals: domain `vault` keeps a PIN in a
// local array whose address never leaves it and calls `spy`, which may
// read the default domain (as db in examples/web-db does) but has no grant
// to vault. spy scans up from vault's stack pointer for "PIN=" and copies
// what follows into the buffer vault lends it. vault runs on a stack of
// its own domain, under vault's key: under mpk spy's read faults, the call
// returns DIPC_EFAULT and the lent buffer stays empty; a grant to the
// default domain does not reach vault's stack. Under sfi (the -fdipc-sfi
// twin) the compiled-in check refuses the read the same way (the MPK
// line). Negative control: `--backend=none` hands the PIN over, for both
// binaries.
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
// MPK: spy returned 0 (dipc_errno 14), saw ''; vault's PIN intact
// NONE: spy returned 1 (dipc_errno 0), saw 'vault-0000-31337'; vault's PIN intact
#include <dipc.h>
#include <stdio.h>

/* The stack pointer of its caller at the call: its own frame address plus
 * the return address and saved frame pointer (no inline assembly, which
 * -fdipc-sfi refuses). */
__attribute__((noinline)) static long stack_pointer(void) __dom("vault") {
  return (long)__builtin_frame_address(0) + 16;
}

long spy(long sp, char *out) __dom("spy") __entry __perm("default", read) {
  volatile const char *p = (volatile const char *)sp;
  for (long i = 0; i < 1024; ++i)
    if (p[i] == 'P' && p[i + 1] == 'I' && p[i + 2] == 'N' && p[i + 3] == '=') {
      for (int j = 0; j < 16; ++j)
        out[j] = p[i + 4 + j];
      out[16] = 0;
      return 1;
    }
  return -1;
}

/* vault is self-contained (no libc, not even memset for an initializer at
 * -O0: no grant to the default domain). It reports through the buffer main
 * lends it: spy's result, dipc_errno after the call, what spy saw, and
 * whether its PIN is intact. */
long vault_check(char *report) __dom("vault") __entry {
  char pin[20];
  const char *text = "PIN=vault-0000-31337";
  for (volatile int i = 0; i < 20; ++i)
    pin[i] = text[i];
  char seen[17];
  for (int i = 0; i < 17; ++i)
    seen[i] = 0;
  long sp = stack_pointer();
  long r = spy(sp, seen);
  long err = dipc_errno;
  int intact = 1;
  for (volatile int i = 0; i < 20; ++i)
    intact &= pin[i] == text[i];
  for (int i = 0; i < 17; ++i)
    report[i] = seen[i];
  return (r + 1) * 1000 + err * 10 + intact; /* r is -1, 0 or 1 */
}

int main(void) {
  char report[17];
  long v = vault_check(report);
  printf("spy returned %ld (dipc_errno %ld), saw '%s'; vault's PIN %s\n",
         v / 1000 - 1, v % 1000 / 10, report, v % 10 ? "intact" : "changed");
  return 0;
}
