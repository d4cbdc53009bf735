/* records.h - what the benchmarks need from the ELF records the compiler
 * emitted into this executable (include/dipc/metadata.h), to load a callee
 * domain by hand, as the loader will (hand_loader.h). A separate file
 * because metadata.h and dipc/rt.h cannot be included together (both define
 * enum dipc_perm). */
#ifndef DIPC_BENCH_RECORDS_H
#define DIPC_BENCH_RECORDS_H

#include <dipc/signature.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An entry point of this executable and the import slot that calls it. */
struct bench_entry_info {
  void *callee_stub; /* what proxies jump to */
  struct dipc_signature signature;
  dipc_policy_t callee_policy;
  void **slot; /* the caller stubs call *slot */
  dipc_policy_t caller_policy;
};

/* Fills `out` from the entry and import records named `name`. Returns 0, or
 * -1 when either record is missing or they disagree on the signature. */
int bench_find_entry(const char *name, struct bench_entry_info *out);

/* The page ranges [begin[k], end[k]) of domain `domain`'s text, rodata and
 * data (empty when begin[k] == end[k]). Returns 0, or -1 when the domain has
 * no record. */
int bench_domain_pages(const char *domain, char *begin[3], char *end[3]);

#ifdef __cplusplus
}
#endif

#endif /* DIPC_BENCH_RECORDS_H */
