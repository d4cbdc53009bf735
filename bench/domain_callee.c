/* domain_callee.c - the entries of domain "bench_callee" (domain_entries.h):
 * the same callee code as callee.c, behind each policy's callee stub. */
#include "domain_entries.h"

#include "callee_body.h"

int domain_low_increment(int x) { return increment_body(x); }

uint64_t domain_low_sum_bytes(const unsigned char *bytes, size_t size) {
  return sum_bytes_body(bytes, size);
}

int domain_high_increment(int x) { return increment_body(x); }

uint64_t domain_high_sum_bytes(const unsigned char *bytes, size_t size) {
  return sum_bytes_body(bytes, size);
}

static int compare_in_domain(const void *a, const void *b) {
  return compare_ints(a, b);
}

uint64_t domain_sort_ints(unsigned seed, size_t n) {
  static int ints[SORT_INTS_MAX];
  return sort_ints_body(ints, n < SORT_INTS_MAX ? n : SORT_INTS_MAX, seed,
                        compare_in_domain);
}

int domain_low_lend(const unsigned char *row, int x) {
  (void)row;
  return increment_body(x);
}
