// More live domains than protection keys: 40 domains, each with an entry
// that bumps a counter on one of its own pages, called round-robin. Every
// call must land in the right domain with its pages accessible, and the
// APL-cache miss counter must show that keys were re-used. Keys stay
// distinct among resident domains.
// RUN: %rt-cc %s -o %t
// RUN: %t | FileCheck %s
// RUN: env DIPC_BACKEND=none %t | FileCheck %s
// CHECK: 40 domains, 4000 calls ok, misses > 0
#include "rt-test.h"

#define N 40
#define ROUNDS 100

DOMAIN_CODE("dom_code") long bump(long *counter, long id) {
  counter[0] += 1;
  counter[1] = id;
  return counter[0];
}

int main(void) {
  dom_t dom[N];
  long (*entry[N])(long *, long);
  long *page[N];
  /* bump's page belongs to dom[0]; every other domain gets a copy of the
   * function on its own page, so each call executes in its own domain. */
  extern char __start_dom_code[], __stop_dom_code[];
  size_t code_len = (size_t)(__stop_dom_code - __start_dom_code);
  for (int i = 0; i < N; i++) {
    dom[i] = dom_create();
    EXPECT(dom[i] >= 0);
    void *code = dom_mmap(dom[i], NULL, 4096,
                          PROT_READ | PROT_WRITE | PROT_EXEC,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    page[i] = dom_mmap(dom[i], NULL, 4096, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT(!dipc_ptr_err(code) && !dipc_ptr_err(page[i]));
    /* The default domain writes the code through a temporary grant. */
    grant_t g = grant_create(dom_default(), dom[i]);
    EXPECT(g >= 0);
    memcpy(code, __start_dom_code, code_len);
    EXPECT_EQ(grant_revoke(g), 0);
    entry[i] = proxy_to(dom[i], code, sig(2, 0, 1, 0, 0), 0, 0);
  }
  for (int r = 1; r <= ROUNDS; r++)
    for (int i = 0; i < N; i++)
      EXPECT_EQ(entry[i](page[i], i), r);

  struct dipc_stats st;
  EXPECT_EQ(dipc_get_stats(&st), 0);
  EXPECT(st.apl_misses > 0);
  EXPECT(st.resident_domains <= 14); /* default + 13 domain keys */
  int seen[16] = {0};
  for (int i = 0; i < N; i++) {
    int k = dipc_domain_pkey(dom[i]);
    EXPECT(k == -1 || (k >= 3 && k < 16 && !seen[k]++));
  }
  /* The counters are only readable by their domains: check through them. */
  for (int i = 0; i < N; i++)
    EXPECT_EQ(entry[i](page[i], i), ROUNDS + 1);
  printf("%d domains, %d calls ok, misses > 0\n", N, N * ROUNDS);
  return 0;
}
