// entry_register and entry_request: preconditions of Table 2 and P4. A
// request succeeds only if every signature equals the registered one, field
// by field; the result is a `call` handle to a new proxy domain and every
// descriptor now points at a proxy.
// RUN: %rt-cc %s -o %t && %t | FileCheck %s
// RUN: env DIPC_BACKEND=none %t 2>&1 | FileCheck %s
// CHECK: entry_register ok
// CHECK: entry_request ok
#include "rt-test.h"

DOMAIN_CODE("dom_b") long twice(long x) { return x + x; }
DOMAIN_CODE("dom_b") long add(long x, long y) { return x + y; }
static long outside(long x) { return x; }

static const char *perms_of(void *addr) {
  static char perms[8];
  FILE *f = fopen("/proc/self/maps", "r");
  char line[512];
  unsigned long lo, hi;
  perms[0] = 0;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 &&
        (unsigned long)addr >= lo && (unsigned long)addr < hi)
      break;
  fclose(f);
  return perms;
}

int main(void) {
  dom_t b = dom_create();
  move_section_to(b, dom_b);
  struct dipc_entry_desc good[2] = {{twice, sig(1, 0, 1, 0, 0), 0},
                                    {add, sig(2, 0, 1, 0, 0), reg_integrity}};
  entry_t e = entry_register(b, 2, good);
  EXPECT(e >= 0);
  for (int p = DIPC_PERM_NIL; p < DIPC_PERM_OWNER; p++)
    EXPECT_EQ(entry_register(dom_copy(b, p), 2, good), -DIPC_EPERM);
  EXPECT_EQ(entry_register(b, 0, good), -DIPC_EINVAL);
  EXPECT_EQ(entry_register(b, DIPC_MAX_ENTRIES + 1, good), -DIPC_EINVAL);
  struct dipc_entry_desc bad = {outside, sig(1, 0, 1, 0, 0), 0};
  EXPECT_EQ(entry_register(b, 1, &bad), -DIPC_EINVAL); /* not b's page */
  EXPECT(entry_register(dom_default(), 1, &bad) >= 0);  /* the default's */
  const struct dipc_signature bad_sigs[] = {
      sig(7, 0, 1, 0, 0), sig(0, 9, 1, 0, 0), sig(0, 0, 3, 0, 0),
      sig(0, 0, 0, 3, 0), sig(0, 0, 0, 0, 4), sig(0, 0, 0, 0, 4104)};
  for (unsigned i = 0; i < sizeof bad_sigs / sizeof bad_sigs[0]; i++) {
    struct dipc_entry_desc d = {twice, bad_sigs[i], 0};
    EXPECT_EQ(entry_register(b, 1, &d), -DIPC_EINVAL);
  }
  struct dipc_entry_desc limits = {twice, sig(6, 8, 2, 2, 4096), 0x3f};
  EXPECT(entry_register(b, 1, &limits) >= 0);
  struct dipc_entry_desc badpol = {twice, sig(1, 0, 1, 0, 0), 1u << 6};
  EXPECT_EQ(entry_register(b, 1, &badpol), -DIPC_EINVAL);
  EXPECT_EQ(entry_register(e, 1, good), -DIPC_EBADF); /* an entry handle */
  printf("entry_register ok\n");

  /* P4: each field of each signature must match */
  for (int entry = 0; entry < 2; entry++)
    for (int field = 0; field < 5; field++) {
      struct dipc_entry_desc req[2] = {good[0], good[1]};
      struct dipc_signature *s = &req[entry].signature;
      switch (field) {
      case 0: s->int_args ^= 1; break;
      case 1: s->vec_args += 1; break;
      case 2: s->int_results = 2; break;
      case 3: s->vec_results = 1; break;
      case 4: s->stack_bytes = 8; break;
      }
      EXPECT_EQ(entry_request(e, 2, req), -DIPC_EPROTO);
      EXPECT(req[0].address == (void *)twice); /* untouched on failure */
    }
  struct dipc_entry_desc req[3] = {good[0], good[1], good[1]};
  EXPECT_EQ(entry_request(e, 3, req), -DIPC_EINVAL); /* more than registered */
  EXPECT_EQ(entry_request(e, 0, req), -DIPC_EINVAL);
  req[0].policy = 1u << 7;
  EXPECT_EQ(entry_request(e, 1, req), -DIPC_EINVAL);
  req[0].policy = 0;
  EXPECT_EQ(entry_request(b, 2, req), -DIPC_EBADF); /* a domain handle */

  dom_t p = entry_request(e, 2, req);
  EXPECT(p >= 0);
  EXPECT(grant_create(dom_default(), p) >= 0); /* proxies check it */
  EXPECT(req[0].address != (void *)twice && req[1].address != (void *)add);
  EXPECT_EQ(((long (*)(long))req[0].address)(21), 42);
  EXPECT_EQ(((long (*)(long, long))req[1].address)(40, 2), 42);
  EXPECT(dom_copy(p, DIPC_PERM_CALL) >= 0); /* the proxy domain: call only */
  EXPECT_EQ(dom_copy(p, DIPC_PERM_READ), -DIPC_EPERM);
  EXPECT_EQ(dipc_ptr_err(dom_mmap(p, NULL, 4096, PROT_READ,
                                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)),
            -DIPC_EPERM);
  /* proxy pages are read+execute, never writable */
  EXPECT(strcmp(perms_of(req[0].address), "r-xp") == 0);
  struct dipc_entry_desc one = good[0]; /* a prefix of the set */
  EXPECT(entry_request(e, 1, &one) >= 0);
  EXPECT_EQ(dipc_handle_close(e), 0);
  EXPECT_EQ(entry_request(e, 1, &one), -DIPC_ESTALE);
  printf("entry_request ok\n");
  return 0;
}
