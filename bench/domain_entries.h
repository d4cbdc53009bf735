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
 * stack_integrity is left out: nothing enforces it yet (the compiler warns),
 * so it would not change the code measured. */
#define BENCH_HIGH_POLICY                                                      \
  reg_integrity | reg_confidentiality | stack_confidentiality

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

/* One cross-domain call each, through the compiler's caller stub. */
int dipc_low_call(int x);
uint64_t dipc_low_sum_bytes(const unsigned char *bytes, size_t size);
int dipc_high_call(int x);
uint64_t dipc_high_sum_bytes(const unsigned char *bytes, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* DIPC_BENCH_DOMAIN_ENTRIES_H */
