/* heap_entries.h - the entries of bench/domain_heap.c: `pairs` malloc/free
 * pairs of `size` bytes in a domain, returning how many blocks came from
 * the heap expected (the domain's own, or glibc's).
 * Both domains read the default domain (libc's GOT); bench_heap_libc may
 * also write it, so its malloc is glibc's. */
#ifndef DIPC_BENCH_HEAP_ENTRIES_H
#define DIPC_BENCH_HEAP_ENTRIES_H

#include <dipc.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

uint64_t heap_own_churn(unsigned pairs, size_t size) __dom("bench_heap")
    __entry __perm("default", read);
uint64_t heap_libc_churn(unsigned pairs, size_t size)
    __dom("bench_heap_libc") __entry __perm("default", write);

/* Their callers in the default domain, through caller stubs (C++ code
 * built without -fdipc calls these, never the entries themselves). */
uint64_t heap_own_call(unsigned pairs, size_t size);
uint64_t heap_libc_call(unsigned pairs, size_t size);

/* Pairs per call: the entry call's cost is spread over them. */
#define HEAP_PAIRS_PER_CALL 256

#ifdef __cplusplus
}
#endif

#endif
