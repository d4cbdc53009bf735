// Emulated CODOMs capabilities: created only within the current domain's
// APL, derived only narrower, pushed/popped on the DCS within its bounds,
// revoked; forging or widening is refused. A callee with dcs_integrity
// cannot pop (or see) its caller's DCS entries; without it, it can.
// RUN: %rt-cc %s -o %t && %t | FileCheck %s
// RUN: env DIPC_BACKEND=none %t 2>&1 | FileCheck %s
// CHECK: create/derive ok
// CHECK: dcs ok
// CHECK: dcs through proxies ok
#include "rt-test.h"

typedef int pop_fn(unsigned);
typedef long depth_fn(void);

/* Runs in domain b; libdipc's functions come as pointers (b cannot read
 * the default domain's GOT). */
DOMAIN_CODE("dom_b") long b_pop(pop_fn *pop, depth_fn *depth) {
  long d = depth();
  return d * 1000 - pop(3); /* pop's error code is positive after negation */
}

int main(void) {
  static char own[8192];
  struct dipc_cap c;
  EXPECT_EQ(dipc_cap_create(0, own, sizeof own, DIPC_PERM_WRITE), 0);
  EXPECT_EQ(dipc_cap_read(0, &c), 0);
  EXPECT(c.base == (uintptr_t)own && c.size == sizeof own &&
         c.perm == DIPC_PERM_WRITE && c.dom == 0);
  EXPECT_EQ(dipc_cap_create(8, own, 1, DIPC_PERM_READ), -DIPC_EINVAL);
  EXPECT_EQ(dipc_cap_create(1, own, 1, DIPC_PERM_NIL), -DIPC_EINVAL);
  EXPECT_EQ(dipc_cap_create(1, own, 1, DIPC_PERM_OWNER), -DIPC_EINVAL);
  EXPECT_EQ(dipc_cap_create(1, own, 0, DIPC_PERM_READ), -DIPC_EINVAL);
  EXPECT_EQ(dipc_cap_create(1, (void *)-4096L, 8192, DIPC_PERM_READ),
            -DIPC_EINVAL);

  dom_t b = dom_create();
  move_section_to(b, dom_b);
  char *bp = dom_mmap(b, NULL, 4096, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  EXPECT_EQ(dipc_cap_create(1, bp, 4096, DIPC_PERM_CALL), -DIPC_EPERM);
  grant_t g = grant_create(dom_default(), dom_copy(b, DIPC_PERM_READ));
  EXPECT_EQ(dipc_cap_create(1, bp, 4096, DIPC_PERM_READ), 0);
  EXPECT_EQ(dipc_cap_create(1, bp, 4096, DIPC_PERM_WRITE), -DIPC_EPERM);
  /* spanning two domains' pages is refused */
  EXPECT_EQ(dipc_cap_create(2, bp - 8, 16, DIPC_PERM_CALL), -DIPC_EPERM);
  EXPECT_EQ(grant_revoke(g), 0);

  /* derive: narrower only */
  EXPECT_EQ(dipc_cap_derive(2, 0, 4096, 4096, DIPC_PERM_READ), 0);
  EXPECT_EQ(dipc_cap_read(2, &c), 0);
  EXPECT(c.base == (uintptr_t)own + 4096 && c.size == 4096 &&
         c.perm == DIPC_PERM_READ);
  EXPECT_EQ(dipc_cap_derive(3, 2, 0, 4096, DIPC_PERM_WRITE), -DIPC_EPERM);
  EXPECT_EQ(dipc_cap_derive(3, 2, 1, 4096, DIPC_PERM_READ), -DIPC_EPERM);
  EXPECT_EQ(dipc_cap_derive(3, 2, 4097, 1, DIPC_PERM_READ), -DIPC_EPERM);
  EXPECT_EQ(dipc_cap_derive(3, 2, 8, (size_t)-4, DIPC_PERM_READ), -DIPC_EPERM);
  EXPECT_EQ(dipc_cap_derive(3, 7, 0, 1, DIPC_PERM_CALL), -DIPC_EPERM); /* empty */
  EXPECT_EQ(dipc_cap_derive(3, 2, 0, 1, DIPC_PERM_CALL), 0);
  EXPECT_EQ(dipc_cap_check(2, own + 4096, 4096, DIPC_PERM_READ), 0);
  EXPECT_EQ(dipc_cap_check(2, own + 4095, 2, DIPC_PERM_READ), -DIPC_EPERM);
  EXPECT_EQ(dipc_cap_check(2, own + 8191, 2, DIPC_PERM_READ), -DIPC_EPERM);
  EXPECT_EQ(dipc_cap_check(2, own + 4096, 1, DIPC_PERM_WRITE), -DIPC_EPERM);
  EXPECT_EQ(dipc_cap_revoke(2), 0);
  EXPECT_EQ(dipc_cap_read(2, &c), 0);
  EXPECT_EQ(c.perm, DIPC_PERM_NIL);
  EXPECT_EQ(dipc_cap_check(2, own + 4096, 1, DIPC_PERM_CALL), -DIPC_EPERM);
  printf("create/derive ok\n");

  /* DCS */
  EXPECT_EQ(dipc_dcs_depth(), 0);
  EXPECT_EQ(dipc_cap_pop(1), -DIPC_EPERM);
  EXPECT_EQ(dipc_cap_push(0), 0);
  EXPECT_EQ(dipc_cap_revoke(0), 0);
  EXPECT_EQ(dipc_cap_pop(5), 0);
  EXPECT_EQ(dipc_cap_read(5, &c), 0);
  EXPECT(c.base == (uintptr_t)own && c.perm == DIPC_PERM_WRITE);
  int pushed = 0;
  while (dipc_cap_push(5) == 0)
    pushed++;
  EXPECT_EQ(pushed, 256);
  EXPECT_EQ(dipc_cap_push(5), -DIPC_ENOSPC);
  while (dipc_cap_pop(6) == 0)
    pushed--;
  EXPECT_EQ(pushed, 0);
  printf("dcs ok\n");

  EXPECT_EQ(dipc_cap_push(5), 0);
  long (*strict)(pop_fn *, depth_fn *) =
      proxy_to(b, b_pop, sig(2, 0, 1, 0, 0), 0, dcs_integrity);
  long (*loose)(pop_fn *, depth_fn *) =
      proxy_to(b, b_pop, sig(2, 0, 1, 0, 0), 0, 0);
  long (*private)(pop_fn *, depth_fn *) =
      proxy_to(b, b_pop, sig(2, 0, 1, 0, 0), dcs_confidentiality, 0);
  EXPECT_EQ(strict(dipc_cap_pop, dipc_dcs_depth), 0 * 1000 + DIPC_EPERM);
  EXPECT_EQ(private(dipc_cap_pop, dipc_dcs_depth), 0 * 1000 + DIPC_EPERM);
  EXPECT_EQ(dipc_dcs_depth(), 1);
  EXPECT_EQ(loose(dipc_cap_pop, dipc_dcs_depth), 1 * 1000 - 0);
  EXPECT_EQ(dipc_dcs_depth(), 0); /* the callee took it: no integrity */
  printf("dcs through proxies ok\n");
  return 0;
}
