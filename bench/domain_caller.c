/* domain_caller.c - the default domain's side of dIPC in one process
 * (domain_entries.h): each function makes one cross-domain call, so the pass
 * puts a caller stub around it with the function's __iso_caller policy. */
#include "domain_entries.h"

#include "callee_body.h"

__attribute__((noinline)) int dipc_low_call(int x) {
  return domain_low_increment(x);
}

__attribute__((noinline)) uint64_t dipc_low_sum_bytes(const unsigned char *bytes,
                                                      size_t size) {
  return domain_low_sum_bytes(bytes, size);
}

__attribute__((noinline)) int dipc_high_call(int x)
    __iso_caller(BENCH_HIGH_POLICY) {
  return domain_high_increment(x);
}

__attribute__((noinline)) uint64_t
dipc_high_sum_bytes(const unsigned char *bytes, size_t size)
    __iso_caller(BENCH_HIGH_POLICY) {
  return domain_high_sum_bytes(bytes, size);
}

static int compare_in_default(const void *a, const void *b) {
  return compare_ints(a, b);
}

/* The default domain's own sort: no domain call, its comparator called
 * back directly (the default domain's functions need no proxy). */
__attribute__((noinline)) uint64_t default_sort_ints(unsigned seed,
                                                     size_t n) {
  static int ints[SORT_INTS_MAX];
  return sort_ints_body(ints, n < SORT_INTS_MAX ? n : SORT_INTS_MAX, seed,
                        compare_in_default);
}

__attribute__((noinline)) uint64_t dipc_sort_call(unsigned seed, size_t n) {
  return domain_sort_ints(seed, n);
}
