// Register integrity: the entry `vandal` breaks the SysV ABI by overwriting
// rbx, rbp and r12-r15 without restoring them, while its callers keep six
// values live in exactly those registers across the call. Every proxy's
// return path restores them from its KCS entry (trusted memory), so all
// callers keep their values, whatever their policy: __iso_caller
// (reg_integrity) through the split-stack proxy, with dcs_integrity too
// through the split+DCS one, with DIPC_SHARED_STACKS=1 (`none` only) the
// two without the stack switch, no policy, and a call through the entry's
// address (the anycall proxy). The stub no longer spills them: the try
// build keeps them in registers across the call (ASM). Negative control: the
// program built without -fdipc (plain calls) loses all six values.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 %s -o %t.try
// RUN: %dipc-bin-dir/dipc-run %t.try | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.try | FileCheck %s
// RUN: env DIPC_SHARED_STACKS=1 %dipc-bin-dir/dipc-run --backend=none %t.try | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 -S %s -o - | FileCheck %s --check-prefix=ASM
// RUN: %clang -I%dipc-include -O2 %s -o %t.plain && %t.plain | FileCheck %s --check-prefix=PLAIN
// CHECK: reg_integrity: vandal returned 42; rbx=1001 rbp=1002 r12=1003 r13=1004 r14=1005 r15=1006
// CHECK-NEXT: reg_integrity+dcs_integrity: vandal returned 42; rbx=2001 rbp=2002 r12=2003 r13=2004 r14=2005 r15=2006
// CHECK-NEXT: no policy: vandal returned 42; rbx=3001 rbp=3002 r12=3003 r13=3004 r14=3005 r15=3006
// CHECK-NEXT: entry address: vandal returned 42; rbx=4001 rbp=4002 r12=4003 r13=4004 r14=4005 r15=4006
// PLAIN: reg_integrity: vandal returned 42; rbx=bad0 rbp=bad1 r12=bad2 r13=bad3 r14=bad4 r15=bad5
// PLAIN-NEXT: reg_integrity+dcs_integrity: vandal returned 42; rbx=bad0 rbp=bad1 r12=bad2 r13=bad3 r14=bad4 r15=bad5
// PLAIN-NEXT: no policy: vandal returned 42; rbx=bad0 rbp=bad1 r12=bad2 r13=bad3 r14=bad4 r15=bad5
// PLAIN-NEXT: entry address: vandal returned 42; rbx=bad0 rbp=bad1 r12=bad2 r13=bad3 r14=bad4 r15=bad5
// ASM-LABEL: with_integrity:
// ASM-NOT: Spill
// ASM: # dipc caller stub: vandal
// ASM-NOT: Reload
// ASM: .Lfunc_end
#include <dipc.h>
#include <stdio.h>

/* The asm names no clobbers, so nothing saves or restores the registers. */
__attribute__((noinline)) long vandal(long x) __dom("vandal") __entry {
  __asm__ volatile("movq $0xbad0, %%rbx\n\tmovq $0xbad1, %%rbp\n\t"
                   "movq $0xbad2, %%r12\n\tmovq $0xbad3, %%r13\n\t"
                   "movq $0xbad4, %%r14\n\tmovq $0xbad5, %%r15" ::
                       : "memory");
  return x + 1;
}

static void report(const char *who, long r, const long *v) {
  printf("%s: vandal returned %ld; rbx=%lx rbp=%lx r12=%lx r13=%lx r14=%lx "
         "r15=%lx\n",
         who, r, v[0], v[1], v[2], v[3], v[4], v[5]);
  fflush(stdout);
}

/* Six values held in the callee-saved registers across the call. */
#define CALL_KEEPING_VALUES(who, seed, call)                                   \
  do {                                                                         \
    register long k_rbx __asm__("rbx") = (seed) + 1;                           \
    register long k_rbp __asm__("rbp") = (seed) + 2;                           \
    register long k_r12 __asm__("r12") = (seed) + 3;                           \
    register long k_r13 __asm__("r13") = (seed) + 4;                           \
    register long k_r14 __asm__("r14") = (seed) + 5;                           \
    register long k_r15 __asm__("r15") = (seed) + 6;                           \
    __asm__ volatile(""                                                        \
                     : "+r"(k_rbx), "+r"(k_rbp), "+r"(k_r12), "+r"(k_r13),     \
                       "+r"(k_r14), "+r"(k_r15));                              \
    long r_ = call(41);                                                        \
    __asm__ volatile(""                                                        \
                     : "+r"(k_rbx), "+r"(k_rbp), "+r"(k_r12), "+r"(k_r13),     \
                       "+r"(k_r14), "+r"(k_r15));                              \
    long v_[6] = {k_rbx, k_rbp, k_r12, k_r13, k_r14, k_r15};                   \
    report(who, r_, v_);                                                       \
  } while (0)

/* Each function saves and restores the registers for its own caller in
 * its prologue and epilogue, so the damage stops there. */
__attribute__((noinline)) void with_integrity(long seed)
    __iso_caller(reg_integrity) {
  CALL_KEEPING_VALUES("reg_integrity", seed, vandal);
}
__attribute__((noinline)) void with_dcs(long seed)
    __iso_caller(reg_integrity, dcs_integrity) {
  CALL_KEEPING_VALUES("reg_integrity+dcs_integrity", seed, vandal);
}
__attribute__((noinline)) void trusting(long seed) {
  CALL_KEEPING_VALUES("no policy", seed, vandal);
}
long (*volatile vandal_address)(long) = vandal;
__attribute__((noinline)) void through_address(long seed) {
  CALL_KEEPING_VALUES("entry address", seed, vandal_address);
}

int main(void) {
  with_integrity(0x1000);
  with_dcs(0x2000);
  trusting(0x3000);
  through_address(0x4000);
  return 0;
}
