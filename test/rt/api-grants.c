// grant_create over all rights masks of both handles (seL4 style): only an
// owner source may grant; the APL entry becomes the destination handle's
// permission (owner as write), observed through capability creation, which
// is bounded by the current domain's APL. grant_revoke sets it to nil and
// makes the grant handle stale.
// RUN: %rt-cc %s -o %t && %t | FileCheck %s
// RUN: env DIPC_BACKEND=none %t 2>&1 | FileCheck %s
// CHECK: grant_create: 25 cases ok
// CHECK: grant_revoke ok
#include "rt-test.h"

/* Highest permission the default domain's APL gives on page. */
static int apl_on(void *page) {
  int best = DIPC_PERM_NIL;
  for (int p = DIPC_PERM_CALL; p <= DIPC_PERM_WRITE; p++)
    if (dipc_cap_create(0, page, 4096, p) == 0)
      best = p;
    else
      EXPECT_EQ(dipc_cap_create(0, page, 4096, p), -DIPC_EPERM);
  return best;
}

int main(void) {
  dom_t def = dom_default(), b = dom_create();
  void *page = dom_mmap(b, NULL, 4096, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  EXPECT(!dipc_ptr_err(page));
  EXPECT_EQ(apl_on(page), DIPC_PERM_NIL);
  int cases = 0;
  for (int src = DIPC_PERM_NIL; src <= DIPC_PERM_OWNER; src++)
    for (int dst = DIPC_PERM_NIL; dst <= DIPC_PERM_OWNER; dst++, cases++) {
      dom_t hs = dom_copy(def, src), hd = dom_copy(b, dst);
      EXPECT(hs >= 0 && hd >= 0);
      grant_t g = grant_create(hs, hd);
      if (src != DIPC_PERM_OWNER) {
        EXPECT_EQ(g, -DIPC_EPERM);
        EXPECT_EQ(apl_on(page), DIPC_PERM_NIL);
      } else {
        EXPECT(g >= 0);
        int expect = dst == DIPC_PERM_OWNER ? DIPC_PERM_WRITE : dst;
        EXPECT_EQ(apl_on(page), expect);
        EXPECT_EQ(grant_revoke(g), 0);
        EXPECT_EQ(apl_on(page), DIPC_PERM_NIL);
        EXPECT_EQ(grant_revoke(g), -DIPC_ESTALE);
      }
      dipc_handle_close(hs);
      dipc_handle_close(hd);
    }
  printf("grant_create: %d cases ok\n", cases);

  /* revoking sets nil even when another grant gave the same access */
  grant_t g1 = grant_create(def, dom_copy(b, DIPC_PERM_READ));
  grant_t g2 = grant_create(def, dom_copy(b, DIPC_PERM_WRITE));
  EXPECT(g1 >= 0 && g2 >= 0);
  EXPECT_EQ(apl_on(page), DIPC_PERM_WRITE);
  EXPECT_EQ(grant_revoke(g1), 0);
  EXPECT_EQ(apl_on(page), DIPC_PERM_NIL);
  EXPECT_EQ(grant_revoke(g2), 0);
  EXPECT_EQ(grant_create(dom_copy(def, DIPC_PERM_WRITE), b), -DIPC_EPERM);
  EXPECT_EQ(grant_create(def, -5), -DIPC_EBADF);
  printf("grant_revoke ok\n");
  return 0;
}
