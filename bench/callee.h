/* callee.h - the callees of the baselines and of the IPC peers, in a
 * translation unit of their own (callee.c) so that calls to them are real
 * calls, never inlined. */
#ifndef DIPC_BENCH_CALLEE_H
#define DIPC_BENCH_CALLEE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The one-word callee of the call baselines: returns x + 1. */
int bench_increment(int x);

/* The callee of the argument-size sweep: reads every byte of the argument
 * and returns their sum, which the caller checks. */
uint64_t bench_sum_bytes(const unsigned char *bytes, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* DIPC_BENCH_CALLEE_H */
