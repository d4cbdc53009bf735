// Register confidentiality from callee to caller: two entries of domain
// `vault` leave the domain's secret in every caller-saved register that is
// not their result (rax), and the caller reads those registers right after
// the call. With __iso_callee(reg_confidentiality) the callee stub zeroes
// them before returning. Whatever the policy, the proxy's return path
// zeroes rcx, rsi, r8-r11 (rdx and rdi are reused by the caller stub's
// code after the call), so what leaks without the policy are the vector
// registers. Negative controls: the entry without the policy, and the
// program built without -fdipc, where every register leaks.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t | FileCheck %s --check-prefixes=CHECK,DIPC
// RUN: %dipc-bin-dir/dipc-run --backend=none %t | FileCheck %s --check-prefixes=CHECK,DIPC
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 %s -o %t.try
// RUN: %dipc-bin-dir/dipc-run %t.try | FileCheck %s --check-prefixes=CHECK,DIPC
// RUN: %clang -I%dipc-include -O2 %s -o %t.plain && %t.plain | FileCheck %s --check-prefixes=CHECK,PLAIN
// CHECK: no policy: returned 7
// DIPC-NEXT: no policy: rcx=0 rsi=0 r8=0 r9=0 r10=0 r11=0
// PLAIN-NEXT: no policy: rcx=5ec7e75ec7e70000 rsi=5ec7e75ec7e70000 r8=5ec7e75ec7e70000 r9=5ec7e75ec7e70000 r10=5ec7e75ec7e70000 r11=5ec7e75ec7e70000
// CHECK-NEXT: no policy: xmm0=5ec7e75ec7e70000 xmm1=5ec7e75ec7e70000 xmm2=5ec7e75ec7e70000 xmm7=5ec7e75ec7e70000 xmm8=5ec7e75ec7e70000 xmm15=5ec7e75ec7e70000
// CHECK-NEXT: reg_confidentiality: returned 7
// DIPC-NEXT: reg_confidentiality: rcx=0 rsi=0 r8=0 r9=0 r10=0 r11=0
// DIPC-NEXT: reg_confidentiality: xmm0=0 xmm1=0 xmm2=0 xmm7=0 xmm8=0 xmm15=0
// PLAIN-NEXT: reg_confidentiality: rcx=5ec7e75ec7e70000 rsi=5ec7e75ec7e70000 r8=5ec7e75ec7e70000 r9=5ec7e75ec7e70000 r10=5ec7e75ec7e70000 r11=5ec7e75ec7e70000
// PLAIN-NEXT: reg_confidentiality: xmm0=5ec7e75ec7e70000 xmm1=5ec7e75ec7e70000 xmm2=5ec7e75ec7e70000 xmm7=5ec7e75ec7e70000 xmm8=5ec7e75ec7e70000 xmm15=5ec7e75ec7e70000
#include <dipc.h>
#include <stdio.h>

#define SECRET 0x5ec7e75ec7e70000L

/* Careless (or compromised) code leaves the secret behind in registers. */
#define LEAVE_SECRET()                                                         \
  __asm__ volatile("movq %0, %%rcx\n\tmovq %0, %%rdx\n\tmovq %0, %%rsi\n\t"    \
                   "movq %0, %%rdi\n\tmovq %0, %%r8\n\tmovq %0, %%r9\n\t"      \
                   "movq %0, %%r10\n\tmovq %0, %%r11\n\tmovq %0, %%xmm0\n\t"   \
                   "movq %0, %%xmm1\n\tmovq %0, %%xmm2\n\tmovq %0, %%xmm7\n\t" \
                   "movq %0, %%xmm8\n\tmovq %0, %%xmm15"                       \
                   :                                                           \
                   : "a"(SECRET)                                               \
                   : "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11",     \
                     "xmm0", "xmm1", "xmm2", "xmm7", "xmm8", "xmm15")

__attribute__((noinline)) long careless(void) __dom("vault") __entry {
  LEAVE_SECRET();
  return 7;
}
__attribute__((noinline)) long scrubbed(void) __dom("vault") __entry
    __iso_callee(reg_confidentiality) {
  LEAVE_SECRET();
  return 7;
}

enum { RCX, RSI, R8, R9, R10, R11, XMM0, XMM1, XMM2, XMM7, XMM8, XMM15, N };

/* The registers right after the call, stored through rbx (not observed). */
#define CALL_AND_READ(call, seen)                                              \
  ({                                                                           \
    long r_ = call;                                                            \
    __asm__ volatile("movq %%rcx, 0(%0)\n\tmovq %%rsi, 8(%0)\n\t"              \
                     "movq %%r8, 16(%0)\n\tmovq %%r9, 24(%0)\n\t"              \
                     "movq %%r10, 32(%0)\n\tmovq %%r11, 40(%0)\n\t"            \
                     "movq %%xmm0, 48(%0)\n\tmovq %%xmm1, 56(%0)\n\t"          \
                     "movq %%xmm2, 64(%0)\n\tmovq %%xmm7, 72(%0)\n\t"          \
                     "movq %%xmm8, 80(%0)\n\tmovq %%xmm15, 88(%0)"             \
                     :                                                         \
                     : "b"(seen)                                               \
                     : "memory");                                              \
    r_;                                                                        \
  })

static void report(const char *who, long r, const long *s) {
  printf("%s: returned %ld\n", who, r);
  printf("%s: rcx=%lx rsi=%lx r8=%lx r9=%lx r10=%lx r11=%lx\n", who, s[RCX],
         s[RSI], s[R8], s[R9], s[R10], s[R11]);
  printf("%s: xmm0=%lx xmm1=%lx xmm2=%lx xmm7=%lx xmm8=%lx xmm15=%lx\n", who,
         s[XMM0], s[XMM1], s[XMM2], s[XMM7], s[XMM8], s[XMM15]);
}

int main(void) {
  long seen[N];
  long r = CALL_AND_READ(careless(), seen);
  report("no policy", r, seen);
  r = CALL_AND_READ(scrubbed(), seen);
  report("reg_confidentiality", r, seen);
  return 0;
}
