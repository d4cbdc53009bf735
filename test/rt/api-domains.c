// Table 2 domain operations and handle validation: dom_default, dom_create,
// dom_copy over all rights masks (seL4 style), dom_mmap, dom_remap, and
// invalid / forged / stale / wrong-kind handles, which get error codes.
// RUN: %rt-cc %s -o %t && %t | FileCheck %s
// RUN: env DIPC_BACKEND=none %t 2>&1 | FileCheck %s
// CHECK: dom_copy: 5x7 cases ok
// CHECK: dom_mmap ok
// CHECK: dom_remap ok
// CHECK: handles ok
#include "rt-test.h"

/* Exactly the permission of h: copying down to it works, above it not. */
static int perm_of(dom_t h) {
  int p = DIPC_PERM_OWNER;
  while (p > DIPC_PERM_NIL && dom_copy(h, p) == -DIPC_EPERM)
    p--;
  return p;
}

static void *map(dom_t d) {
  return dom_mmap(d, NULL, 8192, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

int main(void) {
  dom_t def = dom_default(), a = dom_create(), b = dom_create();
  EXPECT(def >= 0 && a >= 0 && b >= 0 && a != b);
  EXPECT_EQ(perm_of(def), DIPC_PERM_OWNER);
  EXPECT_EQ(perm_of(a), DIPC_PERM_OWNER);

  int cases = 0;
  for (int have = DIPC_PERM_NIL; have <= DIPC_PERM_OWNER; have++) {
    dom_t h = dom_copy(a, have);
    EXPECT(h >= 0);
    EXPECT_EQ(perm_of(h), have);
    for (int want = -1; want <= DIPC_PERM_OWNER + 1; want++, cases++) {
      dom_t c = dom_copy(h, want);
      if (want < DIPC_PERM_NIL || want > DIPC_PERM_OWNER)
        EXPECT_EQ(c, -DIPC_EINVAL);
      else if (want > have)
        EXPECT_EQ(c, -DIPC_EPERM);
      else {
        EXPECT(c >= 0);
        EXPECT_EQ(perm_of(c), want);
        EXPECT_EQ(dipc_handle_close(c), 0);
      }
    }
    /* dom_mmap needs owner */
    void *p = map(h);
    if (have == DIPC_PERM_OWNER) {
      EXPECT(!dipc_ptr_err(p));
    } else {
      EXPECT_EQ(dipc_ptr_err(p), -DIPC_EPERM);
    }
    EXPECT_EQ(dipc_handle_close(h), 0);
  }
  printf("dom_copy: 5x7 cases ok\n");
  (void)cases;

  EXPECT_EQ(dipc_ptr_err(dom_mmap(a, (void *)0x10000000, 4096, PROT_READ,
                                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
                                  0)),
            -DIPC_EINVAL);
  EXPECT_EQ(dipc_ptr_err(dom_mmap(a, NULL, 0, PROT_READ,
                                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)),
            -DIPC_EINVAL); /* from mmap(2) itself */
  char *dp = map(def); /* default-domain pages are ordinary memory */
  EXPECT(!dipc_ptr_err(dp));
  dp[0] = 1;
  printf("dom_mmap ok\n");

  char *pa = map(a);
  EXPECT(!dipc_ptr_err(pa));
  dom_t a_write = dom_copy(a, DIPC_PERM_WRITE);
  EXPECT_EQ(dom_remap(b, a, pa, 4096), 0);      /* first page to b */
  EXPECT_EQ(dom_remap(b, a, pa, 4096), -DIPC_ENOENT); /* no longer in a */
  EXPECT_EQ(dom_remap(a, b, pa, 8192), -DIPC_ENOENT); /* second is a's */
  EXPECT_EQ(dom_remap(a, b, pa + 1, 4096), -DIPC_EINVAL);
  EXPECT_EQ(dom_remap(a, b, pa, 100), -DIPC_EINVAL);
  EXPECT_EQ(dom_remap(a, b, pa, 0), -DIPC_EINVAL);
  EXPECT_EQ(dom_remap(a_write, b, pa, 4096), -DIPC_EPERM);
  EXPECT_EQ(dom_remap(a, dom_copy(b, DIPC_PERM_READ), pa, 4096), -DIPC_EPERM);
  EXPECT_EQ(dom_remap(a, b, pa, 4096), 0);      /* and back */
  EXPECT_EQ(dom_remap(def, a, pa, 8192), 0);    /* both to the default */
  pa[0] = pa[4096] = 7;                         /* ordinary memory again */
  EXPECT_EQ(dom_remap(a, def, pa, 8192), 0);    /* default -> a */
  EXPECT_EQ(dom_remap(b, def, pa, 4096), -DIPC_ENOENT);
  char *unmapped = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
                        -1, 0);
  munmap(unmapped, 4096);
  EXPECT_EQ(dom_remap(a, def, unmapped, 4096), -DIPC_ENOENT);
  printf("dom_remap ok\n");

  /* invalid and forged */
  const int64_t junk[] = {-1, 0, 1, 42, INT64_MAX, INT64_MIN, 1LL << 52};
  for (unsigned i = 0; i < sizeof junk / sizeof junk[0]; i++) {
    EXPECT_EQ(dom_copy(junk[i], DIPC_PERM_NIL), -DIPC_EBADF);
    EXPECT_EQ(grant_revoke(junk[i]), -DIPC_EBADF);
    EXPECT_EQ(dipc_handle_close(junk[i]), -DIPC_EBADF);
  }
  for (int bit = 0; bit < 63; bit++) {
    long r = dom_copy(a ^ (1LL << bit), DIPC_PERM_NIL);
    EXPECT(r == -DIPC_EBADF || r == -DIPC_ESTALE);
  }
  /* wrong kind */
  grant_t g = grant_create(a, b);
  EXPECT(g >= 0);
  EXPECT_EQ(dom_copy(g, DIPC_PERM_NIL), -DIPC_EBADF);
  EXPECT_EQ(dipc_ptr_err(map(g)), -DIPC_EBADF);
  EXPECT_EQ(grant_revoke(a), -DIPC_EBADF);
  EXPECT_EQ(entry_request(g, 1, &(struct dipc_entry_desc){0}), -DIPC_EBADF);
  /* stale */
  dom_t c = dom_copy(a, DIPC_PERM_OWNER);
  EXPECT_EQ(dipc_handle_close(c), 0);
  EXPECT_EQ(dom_copy(c, DIPC_PERM_NIL), -DIPC_ESTALE);
  EXPECT_EQ(dipc_ptr_err(map(c)), -DIPC_ESTALE);
  EXPECT_EQ(dipc_handle_close(c), -DIPC_ESTALE);
  EXPECT_EQ(perm_of(a), DIPC_PERM_OWNER); /* other handles unaffected */
  EXPECT_EQ(grant_revoke(g), 0);
  EXPECT_EQ(grant_revoke(g), -DIPC_ESTALE);
  printf("handles ok\n");
  return 0;
}
