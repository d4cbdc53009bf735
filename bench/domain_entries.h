/* domain_entries.h - dIPC in one process: the entries of domain
 * "bench_callee" (domain_callee.c) and their callers in the default domain
 * (domain_caller.c), both compiled by dipc-clang -fdipc and run under
 * dipc-run. Two policies:
 *   Low:  no isolation property (domain switch, KCS and return path only);
 *   High: mutual isolation: register integrity and confidentiality, stack
 *         integrity and confidentiality, asked by both caller and callee. */
#ifndef DIPC_BENCH_DOMAIN_ENTRIES_H
#define DIPC_BENCH_DOMAIN_ENTRIES_H

#include <dipc.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The paper's High policy: every register and stack property there is.
 * (Stack integrity and confidentiality hold for every call since stacks
 * are per domain: they change nothing in the code measured.) */
#define BENCH_HIGH_POLICY                                                      \
  reg_integrity | reg_confidentiality | stack_integrity | stack_confidentiality

/* The caller passes the argument by reference, in its own memory: the
 * callee domain may read the default domain. */
int domain_low_increment(int x) __dom("bench_callee") __entry
    __perm("default", read);
uint64_t domain_low_sum_bytes(const unsigned char *bytes, size_t size)
    __dom("bench_callee") __entry;
int domain_high_increment(int x) __dom("bench_callee") __entry
    __iso_callee(BENCH_HIGH_POLICY);
uint64_t domain_high_sum_bytes(const unsigned char *bytes, size_t size)
    __dom("bench_callee") __entry __iso_callee(BENCH_HIGH_POLICY);

/* The Low call with a local buffer of the caller's passed by reference
 * (examples/web-db's `row`): the callee does not touch it, so the same
 * caller also runs with the buffer on its own stack (stack_lend.c). */
int domain_low_lend(const unsigned char *row, int x)
    __dom("bench_callee") __entry;

/* qsort of `n` ints (at most SORT_INTS_MAX) drawn from `seed`, in the
 * domain's own array, its comparator called back by libc (under `sfi`
 * through a callback proxy into the domain); the same work in the default
 * domain is default_sort_ints (domain_caller.c). Under 1 KiB: glibc sorts
 * that on the stack; a larger array makes its qsort write a static of its
 * own (the default domain's memory, which this domain may not write). */
#define SORT_INTS_MAX 200
uint64_t domain_sort_ints(unsigned seed, size_t n) __dom("bench_callee")
    __entry;
uint64_t default_sort_ints(unsigned seed, size_t n);
uint64_t dipc_sort_call(unsigned seed, size_t n);

/* One cross-domain call each, through the compiler's caller stub. */
int dipc_low_call(int x);
uint64_t dipc_low_sum_bytes(const unsigned char *bytes, size_t size);
int dipc_high_call(int x);
uint64_t dipc_high_sum_bytes(const unsigned char *bytes, size_t size);
/* stack_lend.c, built with the unsafe stack (the buffer lives there) and
 * with -mllvm -dipc-unsafe-stack=false (the buffer stays on the caller's
 * stack): what lending a local costs the caller. */
int dipc_lend_call(int x);
int dipc_lend_call_own_stack(int x);

#ifdef __cplusplus
}
#endif

#endif /* DIPC_BENCH_DOMAIN_ENTRIES_H */
