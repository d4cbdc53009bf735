// Stack confidentiality: the entry `snoop` scans up to 1 KiB above its own
// frame for "PIN=" and copies out what follows. Called without a stack
// policy it runs on its caller's stack, right below the caller's frame, and
// finds the caller's PIN. Under __iso_caller(stack_confidentiality) the
// proxy runs it on a stack of its own, so the scan finds nothing before it
// runs off the top of that stack (under mpk it then faults on memory of
// another key and the call returns with DIPC_EFAULT; under none the memory
// there is readable and holds no PIN). Negative controls: the caller
// without the policy, and the program built without -fdipc, where both
// callers' PINs are found.
// (stack_integrity is not checked: neither the pass nor the proxies
// implement it yet.)
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t | FileCheck %s --check-prefixes=CHECK,HIDDEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t | FileCheck %s --check-prefixes=CHECK,HIDDEN
// RUN: %clang -I%dipc-include -O2 %s -o %t.plain && %t.plain | FileCheck %s --check-prefixes=CHECK,PLAIN
// CHECK: no policy: callee saw 'stack-4711' (found, dipc_errno 0)
// HIDDEN-NEXT: stack_confidentiality: callee saw 'nothing' ({{not found, dipc_errno 0|faulted, dipc_errno 14}})
// PLAIN-NEXT: stack_confidentiality: callee saw 'stack-4711' (found, dipc_errno 0)
#include <dipc.h>
#include <stdio.h>
#include <string.h>

/* No string constants here: they would be data of the caller's domain. */
__attribute__((noinline)) long snoop(char *out) __dom("spy") __entry {
  volatile const char *p = (volatile const char *)__builtin_frame_address(0);
  for (long i = 0; i < 1024; ++i)
    if (p[i] == 'P' && p[i + 1] == 'I' && p[i + 2] == 'N' && p[i + 3] == '=') {
      for (int j = 0; j < 15; ++j)
        out[j] = p[i + 4 + j];
      out[15] = 0;
      return 1;
    }
  return -1;
}

/* The PIN sits in the caller's frame during the call. */
#define PROBE(who)                                                             \
  do {                                                                         \
    char pin[16];                                                              \
    memcpy(pin, "PIN=stack-4711", 15);                                         \
    __asm__ volatile("" : : "r"(pin) : "memory");                              \
    char seen[16] = "nothing";                                                 \
    long found = snoop(seen);                                                  \
    int err = dipc_errno;                                                      \
    __asm__ volatile("" : : "r"(pin) : "memory");                              \
    printf("%s: callee saw '%s' (%s, dipc_errno %d)\n", who, seen,             \
           err          ? "faulted"                                            \
           : found == 1 ? "found"                                              \
                        : "not found",                                         \
           err);                                                               \
  } while (0)

__attribute__((noinline)) void trusting(void) { PROBE("no policy"); }
__attribute__((noinline)) void confidential(void)
    __iso_caller(stack_confidentiality) {
  PROBE("stack_confidentiality");
}

int main(void) {
  trusting();
  confidential();
  return 0;
}
