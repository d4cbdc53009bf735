/* domain_callee.h - the callees of callee.h compiled into the pages of a
 * dIPC domain (domain_callee.c, domain_pages.ld), for hand-registered
 * entries. */
#ifndef DIPC_BENCH_DOMAIN_CALLEE_H
#define DIPC_BENCH_DOMAIN_CALLEE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

int domain_bench_increment(int x);
uint64_t domain_bench_sum_bytes(const unsigned char *bytes, size_t size);

/* The callee domain's pages: [begin, end), page aligned (domain_pages.ld). */
extern char bench_callee_pages_begin[];
extern char bench_callee_pages_end[];

#ifdef __cplusplus
}
#endif

#endif /* DIPC_BENCH_DOMAIN_CALLEE_H */
