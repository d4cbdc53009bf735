/* domain_heap.c - malloc/free pairs in a named domain (heap_entries.h):
 * "bench_heap" allocates from its own heap (loader/heap_alloc.c),
 * "bench_heap_libc" may write the default domain and so uses glibc's
 * (docs/loader.md, "Heaps"). Same code, same entry call: the figures
 * differ by the allocator only. */
#include "heap_entries.h"

#include <dipc/abi.h>
#include <stdlib.h>

/* The optimiser removes a malloc whose block nobody uses. */
static void *volatile sink_own __dom("bench_heap");
static void *volatile sink_libc __dom("bench_heap_libc");

/* Shared code (no domain): it runs as whichever domain calls it. Counts
 * the blocks that came from the heap expected: a domain heap region
 * (dipc/abi.h) or not. */
static uint64_t churn(unsigned pairs, size_t size, void *volatile *sink,
                      int own) {
  uint64_t right = 0;
  for (unsigned i = 0; i < pairs; i++) {
    char *p = malloc(size);
    p[0] = (char)i;
    *sink = p;
    uintptr_t a = (uintptr_t)p;
    right += (a >= DIPC_HEAP_ADDR && a < DIPC_HEAP_END) == own;
    free(*sink);
  }
  return right;
}

uint64_t heap_own_churn(unsigned pairs, size_t size) {
  return churn(pairs, size, &sink_own, 1);
}

uint64_t heap_libc_churn(unsigned pairs, size_t size) {
  return churn(pairs, size, &sink_libc, 0);
}

/* The benchmark (C++, built without -fdipc) calls these default-domain
 * functions, whose calls to the entries go through caller stubs. */
uint64_t heap_own_call(unsigned pairs, size_t size) {
  return heap_own_churn(pairs, size);
}

uint64_t heap_libc_call(unsigned pairs, size_t size) {
  return heap_libc_churn(pairs, size);
}
