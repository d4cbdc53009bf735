// Under full LTO, lld's inliner may put carrier()'s stub into framed(),
// which keeps a frame pointer (a VLA): dipc-frame, loaded into lld by the
// driver, moves the stub call into a frame-pointer-less function, so rbp is
// saved around it; framed() itself never calls the proxy.
// RUN: %dipc-clang -fdipc -flto -O2 -o %t %s %S/Inputs/lto-carrier.c
// RUN: llvm-objdump -d --no-show-raw-insn %t | FileCheck %s
// CHECK-LABEL: <framed>:
// CHECK: movq %rsp, %rbp
// CHECK-NOT: callq *%r11
// CHECK: callq {{.*}} <__dipc_outlined.framed>
// CHECK-LABEL: <__dipc_outlined.framed>:
// CHECK-NEXT: pushq %rbp
// CHECK-NOT: movq %rsp, %rbp
// CHECK: callq *%r11
long carrier(long);

__attribute__((noinline)) void fill(char *b, long n) {
  for (long i = 0; i < n; i++)
    b[i] = (char)i;
}

long framed(long n) {
  char buf[n];
  fill(buf, n);
  return carrier(n) + buf[0];
}

int main(int argc, char **argv) { return (int)framed(argc + (argv == 0)); }
