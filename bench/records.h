/* records.h - the import slot and the callee stub of an entry, read from
 * the ELF records the compiler emitted into this executable (include/dipc/metadata.h). A file of
 * its own because metadata.h and dipc/rt.h cannot be included together (both
 * define enum dipc_perm). */
#ifndef DIPC_BENCH_RECORDS_H
#define DIPC_BENCH_RECORDS_H

#ifdef __cplusplus
extern "C" {
#endif

/* The slot through which this executable's caller stubs call entry `name`
 * (its first import record), or NULL. The loader stores the entry's proxy
 * there at the first call. */
void **bench_import_slot(const char *name);

/* The callee stub of entry `name` defined in this executable (its entry
 * record's callee_stub: where proxies jump), or NULL. */
void *bench_entry_callee_stub(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* DIPC_BENCH_RECORDS_H */
