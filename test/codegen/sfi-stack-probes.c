// -fdipc-sfi: a function's static frame may be larger than the guard page
// below a callee stack; its own frame's accesses are not checked, so the
// prologue must touch every page on the way down, and the guard faults
// before anything under it is reached (llvm-passes/SfiChecks.cpp, the
// "probe-stack" attribute; an attack round's 4 MiB frames read the secret
// from another thread's vault stack under the guard). Without -fdipc-sfi
// the frame is one subtraction.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -S -o - %s | FileCheck %s
// RUN: %dipc-clang -fdipc -O2 -S -o - %s | FileCheck %s --check-prefix=PLAIN
// CHECK-LABEL: big_frame:
// CHECK: subq $1048576, %r11
// CHECK: .LBB0_1:
// CHECK-NEXT: subq $4096, %rsp
// CHECK-NEXT: movq $0, (%rsp)
// CHECK-NEXT: cmpq %r11, %rsp
// CHECK-NEXT: jne .LBB0_1
// PLAIN-LABEL: big_frame:
// PLAIN-NOT: movq $0, (%rsp)
// PLAIN: subq ${{[0-9]+}}, %rsp
// PLAIN-NOT: movq $0, (%rsp)
// PLAIN: retq

long big_frame(int i) {
  char buf[1 << 20];
  for (int k = 0; k < (1 << 20); k += 4096)
    buf[k] = (char)(i + k);
  long s = 0;
  for (int k = 0; k < (1 << 20); k += 4096)
    s += buf[k];
  return s;
}
