/* callee_body.h - the work of every benchmarked callee, inlined into each
 * callee (callee.c for the baselines and IPC peers, domain_callee.c for the
 * dIPC entries), which are all compiled by the same clang (CMakeLists.txt):
 * every figure runs the same callee code. */
#ifndef DIPC_BENCH_CALLEE_BODY_H
#define DIPC_BENCH_CALLEE_BODY_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

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

/* Fills a with n ints drawn from seed (an LCG), sorts them with qsort and
 * cmp, and returns a checksum the caller recomputes: the callback rows
 * (callback/qsort_*), where libc calls cmp back. */
static inline __attribute__((always_inline)) uint64_t
sort_ints_body(int *a, size_t n, unsigned seed,
               int (*cmp)(const void *, const void *)) {
  for (size_t i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    a[i] = (int)(seed >> 8);
  }
  qsort(a, n, sizeof *a, cmp);
  uint64_t sum = 0;
  for (size_t i = 0; i < n; ++i)
    sum = sum * 31 + (uint64_t)(unsigned)a[i];
  return sum;
}

static inline __attribute__((always_inline)) int compare_ints(const void *a,
                                                              const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

#endif /* DIPC_BENCH_CALLEE_BODY_H */
