/* callee.c - callees of the baselines and of the IPC peers (see callee.h).
 * domain_callee.c compiles the same code again into a dIPC domain's pages:
 * with BENCH_CALLEE_IN_DOMAIN the functions get a domain_ prefix and go to
 * the section that domain_pages.ld places on whole pages of their own. */
#include "callee.h"

#ifdef BENCH_CALLEE_IN_DOMAIN
#define CALLEE(name)                                                           \
  __attribute__((noinline, section("dipc_text_bench_callee"))) domain_##name
#else
#define CALLEE(name) __attribute__((noinline)) name
#endif

int CALLEE(bench_increment)(int x) { return x + 1; }

uint64_t CALLEE(bench_sum_bytes)(const unsigned char *bytes, size_t size) {
  uint64_t sum = 0;
  for (size_t i = 0; i < size; ++i)
    sum += bytes[i];
  return sum;
}
