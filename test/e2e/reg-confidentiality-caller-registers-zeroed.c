// Register confidentiality from caller to callee: right before a call to
// another domain the caller holds secrets in rbx, rbp, r12-r15 (values live
// across the call) and in xmm2-xmm15 (placed by inline asm); the callee
// `peek` records every register it can read at its entry. With
// __iso_caller(reg_confidentiality) the caller stub zeroes them all (and the
// argument registers the entry does not take), and the caller still gets
// its own values back. Negative controls: the same call from a function
// without the policy, and the whole program built without -fdipc, hand the
// secrets to the callee.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t | FileCheck %s --check-prefixes=CHECK,ZEROED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t | FileCheck %s --check-prefixes=CHECK,ZEROED
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 %s -o %t.try
// RUN: %dipc-bin-dir/dipc-run %t.try | FileCheck %s --check-prefixes=CHECK,ZEROED
// RUN: %clang -I%dipc-include -O2 %s -o %t.plain && %t.plain | FileCheck %s --check-prefixes=CHECK,PLAIN
// CHECK: no policy: rbx=5ec0000000000001 rbp=5ec0000000000002 r12=5ec0000000000003 r13=5ec0000000000004 r14=5ec0000000000005 r15=5ec0000000000006
// CHECK-NEXT: no policy: rax={{[0-9a-f]+}} rcx=
// CHECK-NEXT: no policy: xmm2=5ec0000000000077 xmm3=5ec0000000000077 xmm4=5ec0000000000077 xmm5=5ec0000000000077 xmm6=5ec0000000000077 xmm7=5ec0000000000077 xmm8=5ec0000000000077 xmm9=5ec0000000000077 xmm10=5ec0000000000077 xmm11=5ec0000000000077 xmm12=5ec0000000000077 xmm13=5ec0000000000077 xmm14=5ec0000000000077 xmm15=5ec0000000000077
// CHECK-NEXT: no policy: caller's values after the call: intact
// ZEROED-NEXT: reg_confidentiality: rbx=0 rbp=0 r12=0 r13=0 r14=0 r15=0
// ZEROED-NEXT: reg_confidentiality: rax=0 rcx=0 rdx=0 rsi=0 r8=0 r9=0 r10=0
// ZEROED-NEXT: reg_confidentiality: xmm2=0 xmm3=0 xmm4=0 xmm5=0 xmm6=0 xmm7=0 xmm8=0 xmm9=0 xmm10=0 xmm11=0 xmm12=0 xmm13=0 xmm14=0 xmm15=0
// PLAIN-NEXT: reg_confidentiality: rbx=5ec0000000000001 rbp=5ec0000000000002 r12=5ec0000000000003 r13=5ec0000000000004 r14=5ec0000000000005 r15=5ec0000000000006
// PLAIN-NEXT: reg_confidentiality: rax=
// PLAIN-NEXT: reg_confidentiality: xmm2=5ec0000000000077 xmm3=5ec0000000000077 xmm4=5ec0000000000077 xmm5=5ec0000000000077 xmm6=5ec0000000000077 xmm7=5ec0000000000077 xmm8=5ec0000000000077 xmm9=5ec0000000000077 xmm10=5ec0000000000077 xmm11=5ec0000000000077 xmm12=5ec0000000000077 xmm13=5ec0000000000077 xmm14=5ec0000000000077 xmm15=5ec0000000000077
// CHECK-NEXT: reg_confidentiality: caller's values after the call: intact
#include <dipc.h>
#include <stdio.h>

/* seen[] as peek fills it: 13 general-purpose registers, then xmm2-xmm15. */
static const char *const names[] = {"rbx", "rbp", "r12", "r13", "r14",
                                    "r15", "rax", "rcx", "rdx", "rsi",
                                    "r8",  "r9",  "r10"};
#define NGPRS 13
#define NREGS (NGPRS + 14)

/* Stores the registers as they are at its entry into seen[] (on the
 * caller's stack, which every domain may write). */
__attribute__((noinline)) long peek(long *seen) __dom("spy") __entry {
  __asm__ volatile("movq %%rbx, 0(%0)\n\tmovq %%rbp, 8(%0)\n\t"
                   "movq %%r12, 16(%0)\n\tmovq %%r13, 24(%0)\n\t"
                   "movq %%r14, 32(%0)\n\tmovq %%r15, 40(%0)\n\t"
                   "movq %%rax, 48(%0)\n\tmovq %%rcx, 56(%0)\n\t"
                   "movq %%rdx, 64(%0)\n\tmovq %%rsi, 72(%0)\n\t"
                   "movq %%r8, 80(%0)\n\tmovq %%r9, 88(%0)\n\t"
                   "movq %%r10, 96(%0)\n\t"
                   "movq %%xmm2, 104(%0)\n\tmovq %%xmm3, 112(%0)\n\t"
                   "movq %%xmm4, 120(%0)\n\tmovq %%xmm5, 128(%0)\n\t"
                   "movq %%xmm6, 136(%0)\n\tmovq %%xmm7, 144(%0)\n\t"
                   "movq %%xmm8, 152(%0)\n\tmovq %%xmm9, 160(%0)\n\t"
                   "movq %%xmm10, 168(%0)\n\tmovq %%xmm11, 176(%0)\n\t"
                   "movq %%xmm12, 184(%0)\n\tmovq %%xmm13, 192(%0)\n\t"
                   "movq %%xmm14, 200(%0)\n\tmovq %%xmm15, 208(%0)"
                   :
                   : "D"(seen)
                   : "memory");
  return 1;
}

#define SECRET(n) (0x5ec0000000000000L + (n))

/* Secrets in the callee-saved registers (kept there across the call) and in
 * xmm2-xmm15 (set last before the call); yields 1 if the caller's values
 * survived the call. */
#define CALL_WITH_SECRETS(seen)                                                \
  ({                                                                           \
    register long s_rbx __asm__("rbx") = SECRET(1);                            \
    register long s_rbp __asm__("rbp") = SECRET(2);                            \
    register long s_r12 __asm__("r12") = SECRET(3);                            \
    register long s_r13 __asm__("r13") = SECRET(4);                            \
    register long s_r14 __asm__("r14") = SECRET(5);                            \
    register long s_r15 __asm__("r15") = SECRET(6);                            \
    __asm__ volatile(""                                                        \
                     : "+r"(s_rbx), "+r"(s_rbp), "+r"(s_r12), "+r"(s_r13),     \
                       "+r"(s_r14), "+r"(s_r15));                              \
    __asm__ volatile(                                                          \
        "movq %0, %%xmm2\n\tmovq %0, %%xmm3\n\tmovq %0, %%xmm4\n\t"            \
        "movq %0, %%xmm5\n\tmovq %0, %%xmm6\n\tmovq %0, %%xmm7\n\t"            \
        "movq %0, %%xmm8\n\tmovq %0, %%xmm9\n\tmovq %0, %%xmm10\n\t"           \
        "movq %0, %%xmm11\n\tmovq %0, %%xmm12\n\tmovq %0, %%xmm13\n\t"         \
        "movq %0, %%xmm14\n\tmovq %0, %%xmm15"                                 \
        :                                                                      \
        : "r"(SECRET(0x77))                                                    \
        : "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",      \
          "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");               \
    long r_ = peek(seen);                                                      \
    __asm__ volatile(""                                                        \
                     : "+r"(s_rbx), "+r"(s_rbp), "+r"(s_r12), "+r"(s_r13),     \
                       "+r"(s_r14), "+r"(s_r15));                              \
    r_ == 1 && s_rbx == SECRET(1) && s_rbp == SECRET(2) &&                     \
        s_r12 == SECRET(3) && s_r13 == SECRET(4) && s_r14 == SECRET(5) &&      \
        s_r15 == SECRET(6);                                                    \
  })

__attribute__((noinline)) int call_trusting(long *seen) {
  return CALL_WITH_SECRETS(seen);
}
__attribute__((noinline)) int call_confidential(long *seen)
    __iso_caller(reg_confidentiality) {
  return CALL_WITH_SECRETS(seen);
}

static void report(const char *who, const long *seen, int intact) {
  /* Lines of 6 callee-saved, 7 scratch and 14 vector registers. */
  for (int i = 0; i < NREGS; ++i) {
    if (i == 0 || i == 6 || i == NGPRS)
      printf("%s%s:", i ? "\n" : "", who);
    if (i < NGPRS)
      printf(" %s=%lx", names[i], seen[i]);
    else
      printf(" xmm%d=%lx", i - NGPRS + 2, seen[i]);
  }
  printf("\n%s: caller's values after the call: %s\n", who,
         intact ? "intact" : "LOST");
}

int main(void) {
  long seen[NREGS];
  for (int i = 0; i < NREGS; ++i)
    seen[i] = -1;
  int intact = call_trusting(seen);
  report("no policy", seen, intact);
  for (int i = 0; i < NREGS; ++i)
    seen[i] = -1;
  intact = call_confidential(seen);
  report("reg_confidentiality", seen, intact);
  return 0;
}
