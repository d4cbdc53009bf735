// Under `sfi`, code that is not instrumented runs unchecked, and an
// indirect call of instrumented code takes any address after the call
// magic (dipc/sfi.h): a plain library whose code holds those bytes (here
// an immediate) would give domains a way into the middle of its code. The
// loader looks for them in every plain object's code it pins, at start
// and after each dlopen, and refuses the program. Under `none` it runs.
// RUN: %clang -shared -fPIC -O2 %S/Inputs/plain-call-magic.c -o %t.magic.so
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s %t.magic.so -o %t.sfi -Wl,-rpath,%T
// RUN: not %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=NONE
// SFI: dipc-loader: refusing {{.*}}magic.so under sfi: its code holds the sfi call magic at 0x{{[0-9a-f]+}}, so instrumented code could call the code after it unchecked
// SFI-NOT: plain_magic
// NONE: plain_magic() = 0xcc1d5fc0
#include <dipc.h>
#include <stdio.h>

unsigned plain_magic(void);
int answer(int x) __dom("worker") __entry { return x + 1; }

int main(void) {
  printf("plain_magic() = %#x\n", plain_magic());
  return answer(-1);
}
