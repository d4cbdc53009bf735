// With `mpk`, domain B touching domain C's pages without a grant gets a
// protection-key fault naming C's key, whether the page is populated or
// not; a read grant lets reads through and still faults writes; revoking
// it faults reads again. With `none` every access succeeds (no enforcement).
// REQUIRES: pku
// RUN: %rt-cc %s -o %t
// RUN: env DIPC_BACKEND=mpk %t | FileCheck %s --check-prefix=MPK
// RUN: env DIPC_BACKEND=none %t | FileCheck %s --check-prefix=NONE
#include "rt-test.h"

DOMAIN_CODE("dom_b") long peek(long *p) { return *p; }
DOMAIN_CODE("dom_b") long poke(long *p) { return *p = 77; }
DOMAIN_CODE("dom_c") long c_fill(long *p) { return *p = 1234; }

static long (*peek_p)(long *), (*poke_p)(long *);
static long *populated, *untouched;

static void read_populated(void *arg) {
  (void)arg;
  printf("read %ld\n", peek_p(populated));
}
static void read_untouched(void *arg) {
  (void)arg;
  printf("read %ld\n", peek_p(untouched));
}
static void write_populated(void *arg) {
  (void)arg;
  printf("wrote %ld\n", poke_p(populated));
}
static void write_untouched(void *arg) {
  (void)arg;
  printf("wrote %ld\n", poke_p(untouched));
}

static void attacks(const char *label) {
  printf("%s\n", label);
  in_child(read_populated, NULL);
  in_child(read_untouched, NULL);
  in_child(write_populated, NULL);
  in_child(write_untouched, NULL);
}

int main(void) {
  dom_t b = dom_create(), c = dom_create();
  EXPECT(b >= 0 && c >= 0);
  move_section_to(b, dom_b);
  move_section_to(c, dom_c);
  populated = dom_mmap(c, NULL, 4096, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  untouched = dom_mmap(c, NULL, 4096, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  EXPECT(!dipc_ptr_err(populated) && !dipc_ptr_err(untouched));
  long (*fill)(long *) = proxy_to(c, c_fill, sig(1, 0, 1, 0, 0), 0, 0);
  EXPECT_EQ(fill(populated), 1234);
  peek_p = proxy_to(b, peek, sig(1, 0, 1, 0, 0), 0, 0);
  poke_p = proxy_to(b, poke, sig(1, 0, 1, 0, 0), 0, 0);
  printf("backend %s key of C %d\n", dipc_backend(), dipc_domain_pkey(c));

  attacks("no grant");
  grant_t g = grant_create(b, dom_copy(c, DIPC_PERM_READ));
  EXPECT(g >= 0);
  attacks("read grant");
  EXPECT_EQ(grant_revoke(g), 0);
  attacks("revoked");
  return 0;
}
// MPK: backend mpk key of C [[K:[0-9]+]]
// MPK-LABEL: no grant
// MPK-NEXT: signal 11 code SEGV_PKUERR pkey [[K]]
// MPK-NEXT: signal 11 code SEGV_PKUERR pkey [[K]]
// MPK-NEXT: signal 11 code SEGV_PKUERR pkey [[K]]
// MPK-NEXT: signal 11 code SEGV_PKUERR pkey [[K]]
// MPK-LABEL: read grant
// MPK-NEXT: read 1234
// MPK-NEXT: survived
// MPK-NEXT: read 0
// MPK-NEXT: survived
// MPK-NEXT: signal 11 code SEGV_PKUERR pkey [[K]]
// MPK-NEXT: signal 11 code SEGV_PKUERR pkey [[K]]
// MPK-LABEL: revoked
// MPK-NEXT: signal 11 code SEGV_PKUERR pkey [[K]]
// MPK-NEXT: signal 11 code SEGV_PKUERR pkey [[K]]
// MPK-NEXT: signal 11 code SEGV_PKUERR pkey [[K]]
// MPK-NEXT: signal 11 code SEGV_PKUERR pkey [[K]]
// NONE: backend none
// NONE-LABEL: no grant
// NONE-NEXT: read 1234
// NONE-NEXT: survived
// NONE-NEXT: read 0
// NONE-NEXT: survived
// NONE-NEXT: wrote 77
// NONE-NEXT: survived
// NONE-NEXT: wrote 77
// NONE-NEXT: survived
