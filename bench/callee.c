/* callee.c - callees of the baselines and of the IPC peers (see callee.h). */
#include "callee.h"

__attribute__((noinline)) int bench_increment(int x) { return x + 1; }

__attribute__((noinline)) uint64_t bench_sum_bytes(const unsigned char *bytes,
                                                   size_t size) {
  uint64_t sum = 0;
  for (size_t i = 0; i < size; ++i)
    sum += bytes[i];
  return sum;
}
