// try-style recovery (docs/abi.md §4): with no setjmp buffer armed, a
// faulting callee makes the runtime raise a foreign exception from a
// trampoline standing at the caller's return point; the caller's landing
// pad catches it without unwinding any callee frame. The recovery sets
// dipc_errno; __dipc_fault_landed deletes the exception and leaves it.
// RUN: %rt-cxx %s -o %t && %t | FileCheck %s
// RUN: env DIPC_BACKEND=none %t 2>&1 | FileCheck %s
// CHECK: caught 3 of 3
// CHECK: landed ok
#include <unwind.h>

#include "rt-test.h"

extern "C" void __dipc_fault_landed(void *exception);

DOMAIN_CODE("dom_b") long b_load(long *p) { return *p + 1; }

static long (*load)(long *);

__attribute__((noinline)) static bool call_caught(long *p, long *out) {
  try {
    *out = load(p);
    return false;
  } catch (...) {
    return true;
  }
}

int main() {
  install_recovery_handler();
  dom_t b = dom_create();
  move_section_to(b, dom_b);
  /* b_load reads `own` on the caller's stack, default-domain memory. */
  EXPECT(grant_create(b, dom_default()) >= 0);
  for (int split = 0; split < 2; split++) {
    load = (long (*)(long *))proxy_to(b, (void *)b_load, sig(1, 0, 1, 0, 0),
                                      0, split ? stack_confidentiality : 0);
    long own = 1, out = 0;
    EXPECT(!call_caught(&own, &out) && out == 2);
  }
  int caught = 0;
  for (int i = 0; i < 3; i++) {
    long out = -1;
    caught += call_caught(nullptr, &out);
    EXPECT_EQ(out, -1);
    EXPECT_EQ(dipc_kcs_depth(), 0);
    EXPECT_EQ(dipc_current_domain(), 0);
  }
  printf("caught %d of 3\n", caught);
  EXPECT_EQ(*__dipc_errno_location(), DIPC_EFAULT);

  static _Unwind_Exception x;
  *__dipc_errno_location() = 0;
  __dipc_fault_landed(&x);
  EXPECT_EQ(*__dipc_errno_location(), 0);
  printf("landed ok\n");
  return 0;
}
