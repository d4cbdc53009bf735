// The API gate's internal operations are no way out of a domain. `mallory`
// (no grant on the default domain) calls the runtime's API gate directly
// (execution is not restricted by keys, and the gate's address is in
// libdipc's symbol table) with the operation the thread-exit hook uses.
// Before the check the runtime released the thread's state in the middle
// of mallory's call: the thread's stack went back to key 0 (under mpk
// mallory's next stack access then killed the process) and the next gate
// would have given the thread a fresh state in the default domain (under
// `none` it did, and the proxy's return found no call and stopped the
// process). Now the operation is refused (EPERM) unless the thread runs in
// the default domain with no call in progress: mallory stays in its
// domain, its write to the victim faults under mpk and main sees
// DIPC_EFAULT; the victim keeps its value. The refusal holds under `none`
// too; there mallory's write goes through (no keys: the negative control).
// Under sfi (-fdipc-sfi) mallory does not reach the gate at all: its
// indirect call to dipc_gate (no call magic, not an exported function) is
// refused like a denied access, so the call returns nothing and main sees
// DIPC_EFAULT; mallory's write to the victim faults as well.
// RUN: %dipc-clang -fdipc -O2 -I%S/../rt/Inputs %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -I%S/../rt/Inputs %s -o %t.sfi
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefixes=CHECK,NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefixes=CHECK,NONE
// CHECK: mallory runs in domain [[DOM:[1-9][0-9]*]]
// CHECK-NEXT: thread exit: error 1, then in domain [[DOM]]
// MPK-NEXT: mallory writes the victim: dipc_errno 14
// MPK-NEXT: victim 42
// NONE-NEXT: mallory writes the victim: dipc_errno 0
// NONE-NEXT: victim 2989
// SFI: mallory runs in domain {{[1-9][0-9]*}}
// SFI-NEXT: thread exit: error 0, then in domain -1, dipc_errno 14
// SFI-NEXT: mallory writes the victim: dipc_errno 14
// SFI-NEXT: victim 42
#define _GNU_SOURCE
#include <dipc.h>
#include <dipc/rt.h>
#include <stdint.h>
#include <stdio.h>

#include "rt-symbol.h"

#define OP_THREAD_EXIT 24 /* rt/internal.h, enum dipc_op */

struct gate_args {
  uint64_t arg[8], out[4];
};
typedef long gate_fn(unsigned, struct gate_args *);
typedef long current_fn(void);

static long victim = 42; /* default domain */

long mallory_exit(gate_fn *gate, current_fn *current, long *after)
    __dom("mallory") __entry {
  struct gate_args a = {{0}, {0}};
  long r = gate(OP_THREAD_EXIT, &a);
  *after = current();
  return r;
}

long mallory_write(long *p) __dom("mallory") __entry {
  *(volatile long *)p = 0xbad;
  return 1;
}

long mallory_where(current_fn *current) __dom("mallory") __entry {
  return current();
}

int main(void) {
  gate_fn *gate = (gate_fn *)rt_symbol("dipc_gate");
  printf("mallory runs in domain %ld\n", mallory_where(dipc_current_domain));
  long after = -1;
  long r = mallory_exit(gate, dipc_current_domain, &after);
  printf("thread exit: error %ld, then in domain %ld, dipc_errno %d\n", -r,
         after, dipc_errno);
  mallory_write(&victim);
  printf("mallory writes the victim: dipc_errno %d\n", dipc_errno);
  printf("victim %ld\n", victim);
  return 0;
}
