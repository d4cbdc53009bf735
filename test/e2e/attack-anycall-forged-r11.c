// A domain jumping to the runtime vector's anycall routine with a forged
// r11 (as an anycall stub does with its own address) cannot reach anything
// but registered entries: with r11 = a non-entry function of another
// domain, or 0, the process stops with a message naming the address and
// the loader's refusal status 78, and the function never runs with its
// domain's rights. Control: r11 = the entry's real anycall stub (what the
// entry's address is) reaches the entry, with its domain's rights. The
// lookup does not depend on protection keys: the same holds with
// --backend=none.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t stub 2>&1 | FileCheck %s --check-prefix=STUB
// RUN: sh -c '"$@"; echo "status $?"' sh %dipc-bin-dir/dipc-run %t nonentry 2>&1 | FileCheck %s --check-prefix=FORGED
// RUN: sh -c '"$@"; echo "status $?"' sh %dipc-bin-dir/dipc-run --backend=none %t nonentry 2>&1 | FileCheck %s --check-prefix=FORGED
// RUN: sh -c '"$@"; echo "status $?"' sh %dipc-bin-dir/dipc-run %t zero 2>&1 | FileCheck %s --check-prefix=ZERO
// STUB: through the entry's stub: 31337
// FORGED: dipc: call through 0x{{[0-9a-f]+}}, which is not the address of a loaded entry (no anycall stub is registered there)
// FORGED-NOT: through
// FORGED: status 78
// ZERO: dipc: call through 0, which is not the address of a loaded entry
// ZERO-NOT: through
// ZERO: status 78
#include <dipc.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static long private_key __dom("keys") = 31337;
// Not an entry.
__attribute__((noinline)) long dump_key(long x) __dom("keys") {
  return private_key + x;
}
long read_key(long x) __dom("keys") __entry { return dump_key(x); }

// What an anycall stub does, with r11 chosen by the caller.
long vector_jump(uintptr_t r11, long arg);
__asm__(".text\n.globl vector_jump\n.type vector_jump,@function\n"
        "vector_jump:\n mov %rdi, %r11\n mov %rsi, %rdi\n"
        " jmp *0x7ff01038\n"); /* DIPC_VECTOR_ANYCALL */

long evil(uintptr_t r11) __dom("evil") __entry { return vector_jump(r11, 0); }

int main(int argc, char **argv) {
  uintptr_t r11 = 0;
  if (argc > 1 && !strcmp(argv[1], "stub"))
    r11 = (uintptr_t)read_key;
  else if (argc > 1 && !strcmp(argv[1], "nonentry"))
    r11 = (uintptr_t)dump_key;
  fflush(stdout);
  printf("through the entry's stub: %ld\n", evil(r11));
  return 0;
}
