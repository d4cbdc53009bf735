// Thread state is created lazily by a thread's first proxy call and given
// back when it exits: 400 short-lived threads (more than the 256 state
// slots), each calling across domains with a split stack, all succeed.
// RUN: %rt-cc %s -o %t && %t | FileCheck %s
// RUN: env DIPC_BACKEND=none %t 2>&1 | FileCheck %s
// CHECK: 400 threads ok
#include <pthread.h>

#include "rt-test.h"

DOMAIN_CODE("dom_b") long twice(long x) { return x + x; }

static long (*p)(long);

static void *body(void *arg) {
  long x = (long)arg;
  if (p(x) != 2 * x || dipc_kcs_depth() != 0)
    return (void *)1;
  return NULL;
}

int main(void) {
  dom_t b = dom_create();
  move_section_to(b, dom_b);
  p = proxy_to(b, twice, sig(1, 0, 1, 0, 0), 0, stack_confidentiality);
  for (long i = 0; i < 400; i++) {
    pthread_t t;
    void *r;
    EXPECT_EQ(pthread_create(&t, NULL, body, (void *)i), 0);
    EXPECT_EQ(pthread_join(t, &r), 0);
    EXPECT(r == NULL);
  }
  printf("400 threads ok\n");
  return 0;
}
