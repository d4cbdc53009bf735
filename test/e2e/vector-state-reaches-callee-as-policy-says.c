// The callee sees the caller's vector state as the caller's policy says, on
// every path a call takes: the first call through an import (the runtime
// resolves it in C code, mid-call), a later one (proxy fast path), the
// calls of a new thread, and the first call with stack_confidentiality
// (the runtime allocates the callee's stack mid-call), on the main thread
// and on the new one. Right before each call the caller fills every vector
// register the CPU has (zmm0-31 and k0-7, or ymm0-15, or xmm0-15; read at
// run time) with markers and sets MXCSR and the x87 control word to
// non-default values; the entry `peek`, which takes no vector argument,
// stores all of it at its first instruction. Without reg_confidentiality
// it must be exactly the caller's state; with it, every vector register
// must be zero (upper halves, zmm16-31 and k0-7 too). MXCSR and the x87
// control word are the caller's either way (callee-saved in the ABI) and
// DF is clear. The runtime's values (e.g. of glibc's string functions,
// whose AVX2 variants the GLIBC_TUNABLES runs pick) must never show.
// Control: the program built without -fdipc hands everything over.
// RUN: %dipc-clang -fdipc -O2 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run %t | FileCheck %s --check-prefixes=CHECK,ZEROED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t | FileCheck %s --check-prefixes=CHECK,ZEROED
// RUN: env GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-EVEX %dipc-bin-dir/dipc-run %t | FileCheck %s --check-prefixes=CHECK,ZEROED
// RUN: env DIPC_NO_PKU=1 %dipc-bin-dir/dipc-run %t | FileCheck %s --check-prefixes=CHECK,ZEROED
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 %s -o %t.try -lpthread
// RUN: %dipc-bin-dir/dipc-run %t.try | FileCheck %s --check-prefixes=CHECK,ZEROED
// RUN: env GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-EVEX %dipc-bin-dir/dipc-run %t.try | FileCheck %s --check-prefixes=CHECK,ZEROED
// RUN: %clang -I%dipc-include -O2 %s -o %t.plain -lpthread && %t.plain | FileCheck %s --check-prefixes=CHECK,PLAIN
// CHECK: vector state: {{sse|avx|avx512}}
// CHECK-NEXT: main, first call, no policy: as the caller left it
// CHECK-NEXT: main, later call, no policy: as the caller left it
// ZEROED-NEXT: main, first call, reg_confidentiality: zeroed
// ZEROED-NEXT: main, later call, reg_confidentiality: zeroed
// PLAIN-NEXT: main, first call, reg_confidentiality: as the caller left it
// PLAIN-NEXT: main, later call, reg_confidentiality: as the caller left it
// CHECK-NEXT: main, first call, stack_confidentiality: as the caller left it
// CHECK-NEXT: main, later call, stack_confidentiality: as the caller left it
// CHECK-NEXT: thread, first call, no policy: as the caller left it
// CHECK-NEXT: thread, later call, no policy: as the caller left it
// ZEROED-NEXT: thread, first call, reg_confidentiality: zeroed
// PLAIN-NEXT: thread, first call, reg_confidentiality: as the caller left it
// CHECK-NEXT: thread, first call, stack_confidentiality: as the caller left it
#include <dipc.h>
#include <pthread.h>
#include <stdio.h>

#include "../rt/Inputs/vector-state.h"

/* Stores the state it is entered with into *seen (on the caller's stack,
 * which every domain may write). */
__attribute__((noinline)) void peek(struct vstate *seen, long level)
    __dom("spy") __entry {
  __asm__ volatile(VS_DUMP : : "D"(seen), "S"(level) : "memory", "cc");
}

static long level;
static struct vstate want;

/* The markers go in last before the call; the compiler keeps nothing in
 * vector registers across it (clobbers). */
#define CALL_FILLED(seen)                                                      \
  do {                                                                         \
    const struct vstate *base_ = &want;                                        \
    long level_ = level;                                                       \
    __asm__ volatile(VS_FILL                                                   \
                     : "+D"(base_), "+S"(level_)                               \
                     :                                                         \
                     : "memory", "cc", VS_CLOBBERS);                           \
    peek(seen, level);                                                         \
    vs_reset_control();                                                        \
  } while (0)

__attribute__((noinline)) void call_trusting(struct vstate *seen) {
  CALL_FILLED(seen);
}
__attribute__((noinline)) void call_confidential(struct vstate *seen)
    __iso_caller(reg_confidentiality) {
  CALL_FILLED(seen);
}
__attribute__((noinline)) void call_split(struct vstate *seen)
    __iso_caller(stack_confidentiality) {
  CALL_FILLED(seen);
}

static char lines[16][200];
static int nlines;

static void probe(const char *who, const char *when, const char *policy,
                  void (*call)(struct vstate *)) {
  struct vstate seen;
  char buf[160];
  memset(&seen, 0xee, sizeof seen);
  call(&seen);
  int err = dipc_errno;
  snprintf(lines[nlines++], sizeof lines[0], "%s, %s call, %s: %s%s", who, when,
           policy, vs_judge(&want, &seen, level, buf, sizeof buf),
           err ? ", CALLEE FAULTED" : "");
}

static void *thread_body(void *arg) {
  (void)arg;
  probe("thread", "first", "no policy", call_trusting);
  probe("thread", "later", "no policy", call_trusting);
  probe("thread", "first", "reg_confidentiality", call_confidential);
  probe("thread", "first", "stack_confidentiality", call_split);
  return NULL;
}

int main(void) {
  level = vs_level();
  vs_markers(&want);
  printf("vector state: %s\n", vs_level_name(level));
  probe("main", "first", "no policy", call_trusting);
  probe("main", "later", "no policy", call_trusting);
  probe("main", "first", "reg_confidentiality", call_confidential);
  probe("main", "later", "reg_confidentiality", call_confidential);
  probe("main", "first", "stack_confidentiality", call_split);
  probe("main", "later", "stack_confidentiality", call_split);
  pthread_t t;
  if (pthread_create(&t, NULL, thread_body, NULL) || pthread_join(t, NULL))
    return 1;
  for (int i = 0; i < nlines; i++)
    printf("%s\n", lines[i]);
  return 0;
}
