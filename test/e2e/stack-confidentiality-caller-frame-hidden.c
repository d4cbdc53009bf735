// Stack confidentiality: the entry `snoop` scans up to 1 KiB above its own
// frame for "PIN=" and copies out what follows. Every cross-domain call now
// runs the callee on a stack of its own domain (with or without
// __iso_caller(stack_confidentiality)), so the scan finds nothing before it
// runs off the top of that stack (under mpk or none it then faults on the
// unmapped page above and the call returns with DIPC_EFAULT, or finds
// nothing there). The PIN is a non-escaping local (only read after the
// call), so it stays on the caller's stack. Negative
// control: the program built without -fdipc, where the callee runs right
// below the caller's frame and both callers' PINs are found.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t | FileCheck %s --check-prefixes=HIDDEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t | FileCheck %s --check-prefixes=HIDDEN
// RUN: %clang -I%dipc-include -O2 %s -o %t.plain && %t.plain | FileCheck %s --check-prefixes=PLAIN
// HIDDEN: no policy: callee saw 'nothing' ({{not found, dipc_errno 0|faulted, dipc_errno 14}})
// HIDDEN-NEXT: stack_confidentiality: callee saw 'nothing' ({{not found, dipc_errno 0|faulted, dipc_errno 14}})
// PLAIN: no policy: callee saw 'stack-4711' (found, dipc_errno 0)
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
    char seen[16] = "nothing";                                                 \
    long found = snoop(seen);                                                  \
    int err = dipc_errno;                                                      \
    int sum = 0; /* read after the call, through an index the compiler */    \
    for (volatile int i = 0; i < 15; ++i) /* cannot see: pin stays whole */  \
      sum += pin[i];                                                           \
    if (sum != 1076)                                                           \
      printf("the caller's PIN changed\n");                                    \
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
