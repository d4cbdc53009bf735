/* callee.c - callees of the baselines and of the IPC peers (see callee.h). */
#include "callee.h"

#include "callee_body.h"

int bench_increment(int x) { return increment_body(x); }

uint64_t bench_sum_bytes(const unsigned char *bytes, size_t size) {
  return sum_bytes_body(bytes, size);
}
