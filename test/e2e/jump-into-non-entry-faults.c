// Jumping to a non-entry function of another domain (through a forged
// function pointer, bypassing proxies) runs it with the caller's rights:
// its access to its own domain's data faults under mpk and sfi (-fdipc-sfi). Negative controls:
// `--backend=none` and no -fdipc leak the secret that function returns.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %if pku %{ not --crash %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=MPK %}
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=LEAK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=LEAK
// RUN: %clang -I%dipc-include -O2 %s -o %t.plain && %t.plain | FileCheck %s --check-prefix=LEAK
// MPK: entry says 7
// MPK-NEXT: dipc: protection-key fault: access to 0x{{[0-9a-f]+}} (key {{[0-9]+}}, domain keys) denied to the running domain
// MPK-NOT: leaked
// SFI: entry says 7
// SFI-NEXT: dipc: sfi fault: read of 8 bytes at 0x{{[0-9a-f]+}} (domain keys) denied to the running domain (default)
// SFI-NOT: leaked
// LEAK: entry says 7
// LEAK: leaked 31337
#include <dipc.h>
#include <stdint.h>
#include <stdio.h>

static long private_key __dom("keys") = 31337;
// Not an entry: only code of `keys` may call it.
__attribute__((noinline)) long dump_key(void) __dom("keys") {
  return private_key;
}
long public_value(void) __dom("keys") __entry { return dump_key() * 0 + 7; }

// The address is forged at run time, as an attacker would.
volatile uintptr_t forged;

int main(void) {
  printf("entry says %ld\n", public_value());
  fflush(stdout);
  forged = (uintptr_t)&dump_key;
  long (*jump)(void) = (long (*)(void))forged;
  printf("leaked %ld\n", jump());
  return 0;
}
