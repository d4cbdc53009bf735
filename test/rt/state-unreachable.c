// A thread's runtime state (registers, KCS, DCS) lives under the runtime's
// protection key: neither the default domain nor a callee domain can read
// or write it; the fault names the runtime key (1). Negative control: with
// `none` the same reads succeed.
// REQUIRES: pku
// RUN: %rt-cc %s -o %t
// RUN: env DIPC_BACKEND=mpk %t | FileCheck %s --check-prefix=MPK
// RUN: env DIPC_BACKEND=none %t | FileCheck %s --check-prefix=NONE
#include "rt-test.h"

DOMAIN_CODE("dom_b") long b_read(long *p) { return *p; }
DOMAIN_CODE("dom_b") long b_write(long *p) { return *p = 6; }

static long *state;
static long (*b_read_p)(long *), (*b_write_p)(long *);

/* The state's first word is its own address; writes go to a spare word
 * (DCS storage) so that the `none` run survives them. */
static void default_reads(void *a) {
  (void)a;
  printf("self %d\n", *(volatile long *)state == (long)state);
}
static void default_writes(void *a) {
  (void)a;
  ((volatile long *)state)[1000] = 5;
  printf("wrote %ld\n", ((volatile long *)state)[1000]);
}
static void callee_reads(void *a) {
  (void)a;
  printf("self %d\n", b_read_p(state) == (long)state);
}
static void callee_writes(void *a) {
  (void)a;
  printf("wrote %ld\n", b_write_p(state + 1000));
}

int main(void) {
  dom_t b = dom_create();
  move_section_to(b, dom_b);
  b_read_p = proxy_to(b, b_read, sig(1, 0, 1, 0, 0), 0, 0);
  b_write_p = proxy_to(b, b_write, sig(1, 0, 1, 0, 0), 0, 0);
  state = dipc_thread_state();
  EXPECT(state != NULL);
  printf("backend %s\n", dipc_backend());
  in_child(default_reads, NULL);
  in_child(default_writes, NULL);
  in_child(callee_reads, NULL);
  in_child(callee_writes, NULL);
  return 0;
}
// MPK: backend mpk
// MPK-NEXT: signal 11 code SEGV_PKUERR pkey 1
// MPK-NEXT: signal 11 code SEGV_PKUERR pkey 1
// MPK-NEXT: signal 11 code SEGV_PKUERR pkey 1
// MPK-NEXT: signal 11 code SEGV_PKUERR pkey 1
// NONE: backend none
// NONE-NEXT: self 1
// NONE-NEXT: survived
// NONE-NEXT: wrote 5
// NONE-NEXT: survived
// NONE-NEXT: self 1
// NONE-NEXT: survived
// NONE-NEXT: wrote 6
// NONE-NEXT: survived
