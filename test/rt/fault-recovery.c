// setjmp-style recovery (docs/abi.md §4): a callee that faults (a null
// dereference, and with `mpk` a protection-key fault on another domain's
// page) makes its caller's call return 0 with dipc_errno == DIPC_EFAULT; the
// caller's domain, stack, callee-saved registers and KCS are restored, and
// further calls work. Also across two levels (B recovers from C's fault)
// and with split stacks.
// RUN: %rt-cc %s -o %t && %t | FileCheck %s
// RUN: env DIPC_BACKEND=none %t 2>&1 | FileCheck %s
// CHECK: recovered 4 faults
// CHECK: nested ok
#include "rt-test.h"

void __dipc_setjmp_arm(void **buf);

DOMAIN_CODE("dom_b") long b_load(long *p) { return *p + 1; }
DOMAIN_CODE("dom_b") long b_mid(long (*c)(long *), long *p,
                                void (*arm)(void **)) {
  void *buf[5];
  if (__builtin_setjmp(buf))
    return 555; /* C faulted; B lives on */
  arm(buf);
  return c(p) + 1000;
}
DOMAIN_CODE("dom_c") long c_load(long *p) { return *p; }

/* A caller stub as the compiler emits it for setjmp-style recovery. */
static long call_armed(long (*f)(long *), long *arg) {
  void *buf[5];
  *__dipc_errno_location() = 0;
  if (__builtin_setjmp(buf)) {
    *__dipc_errno_location() = DIPC_EFAULT;
    return 0;
  }
  __dipc_setjmp_arm(buf);
  return f(arg);
}

int main(void) {
  install_recovery_handler();
  dom_t b = dom_create(), c = dom_create();
  move_section_to(b, dom_b);
  move_section_to(c, dom_c);
  /* The callees read `own` on the caller's stack, default-domain memory
   * (each runs on a stack of its own domain). */
  EXPECT(grant_create(b, dom_default()) >= 0);
  EXPECT(grant_create(c, dom_default()) >= 0);
  long *cpage = dom_mmap(c, NULL, 4096, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  long own = 41;
  int recovered = 0;
  for (int split = 0; split < 2; split++) {
    long (*load)(long *) =
        proxy_to(b, b_load, sig(1, 0, 1, 0, 0), 0,
                 split ? stack_confidentiality : 0);
    EXPECT_EQ(call_armed(load, &own), 42);
    EXPECT_EQ(*__dipc_errno_location(), 0);
    long *bad[] = {NULL, cpage};
    for (int i = 0; i < 2; i++) {
      if (i == 1 && strcmp(dipc_backend(), "mpk"))
        bad[i] = NULL; /* no enforcement: fault with a null pointer */
      EXPECT_EQ(call_armed(load, bad[i]), 0);
      EXPECT_EQ(*__dipc_errno_location(), DIPC_EFAULT);
      EXPECT_EQ(dipc_kcs_depth(), 0);
      EXPECT_EQ(dipc_current_domain(), 0);
      EXPECT_EQ(own, 41);
      recovered++;
      EXPECT_EQ(call_armed(load, &own), 42); /* still works */
    }
  }
  printf("recovered %d faults\n", recovered);

  long (*mid)(long (*)(long *), long *, void (*)(void **)) =
      proxy_to(b, b_mid, sig(3, 0, 1, 0, 0), 0, stack_confidentiality);
  long (*cload)(long *) = proxy_for(b, c, c_load, sig(1, 0, 1, 0, 0), 0, 0);
  *(volatile long *)&own = 7; /* c may read the default domain */
  EXPECT_EQ(mid(cload, &own, __dipc_setjmp_arm), 1007);
  EXPECT_EQ(mid(cload, NULL, __dipc_setjmp_arm), 555);
  EXPECT_EQ(dipc_kcs_depth(), 0);
  printf("nested ok\n");
  return 0;
}
