/* callee_body.h - the work of every benchmarked callee, inlined into each
 * callee (callee.c for the baselines and IPC peers, domain_callee.c for the
 * dIPC entries), which are all compiled by the same clang (CMakeLists.txt):
 * every figure runs the same callee code. */
#ifndef DIPC_BENCH_CALLEE_BODY_H
#define DIPC_BENCH_CALLEE_BODY_H

#include <stddef.h>
#include <stdint.h>

static inline __attribute__((always_inline)) int increment_body(int x) {
  return x + 1;
}

/* Reads every byte of the argument; the caller checks the sum. */
static inline __attribute__((always_inline)) uint64_t
sum_bytes_body(const unsigned char *bytes, size_t size) {
  uint64_t sum = 0;
  for (size_t i = 0; i < size; ++i)
    sum += bytes[i];
  return sum;
}

#endif /* DIPC_BENCH_CALLEE_BODY_H */
