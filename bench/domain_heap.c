/* domain_heap.c - malloc/free pairs in a named domain (heap_entries.h):
 * "bench_heap" allocates from its own heap (loader/heap_alloc.c),
 * "bench_heap_libc" may write the default domain and so uses glibc's
 * (docs/loader.md, "Heaps"). Same code, same entry call: the figures
 * differ by the allocator only. */
#include "heap_entries.h"

#include <stdlib.h>

/* The optimiser removes a malloc whose block nobody uses. */
static void *volatile sink_own __dom("bench_heap");
static void *volatile sink_libc __dom("bench_heap_libc");

/* Shared code (no domain): it runs as whichever domain calls it. */
static uint64_t churn(unsigned pairs, size_t size, void *volatile *sink) {
  uint64_t ok = 0;
  for (unsigned i = 0; i < pairs; i++) {
    char *p = malloc(size);
    p[0] = (char)i;
    *sink = p;
    ok += p != NULL;
    free(*sink);
  }
  return ok;
}

uint64_t heap_own_churn(unsigned pairs, size_t size) {
  return churn(pairs, size, &sink_own);
}

uint64_t heap_libc_churn(unsigned pairs, size_t size) {
  return churn(pairs, size, &sink_libc);
}
