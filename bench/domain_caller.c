/* domain_caller.c - the default domain's side of dIPC in one process
 * (domain_entries.h): each function makes one cross-domain call, so the pass
 * puts a caller stub around it with the function's __iso_caller policy. */
#include "domain_entries.h"

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
