/* recovery_entries.h - the entry points of the recovery-stub benchmark's
 * callee domain, and the callers generated from recovery_caller.c. */
#ifndef DIPC_BENCH_RECOVERY_ENTRIES_H
#define DIPC_BENCH_RECOVERY_ENTRIES_H

#include <dipc.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Domain "bench_callee", no isolation property: the calls measure the
 * recovery stubs, not the policy. */
int recovery_increment(int x) __dom("bench_callee") __entry;
int recovery_crash(int x) __dom("bench_callee") __entry;

/* recovery_caller.c compiled with -fdipc-recovery=setjmp and =try: one
 * cross-domain call through the compiler's caller stub. *_call returns
 * recovery_increment(x); *_crash calls recovery_crash and returns 1 when the
 * call came back with dipc_errno == DIPC_EFAULT and result 0. */
int recovery_setjmp_call(int x);
int recovery_setjmp_crash(int x);
int recovery_try_call(int x);
int recovery_try_crash(int x);

#ifdef __cplusplus
}
#endif

#endif /* DIPC_BENCH_RECOVERY_ENTRIES_H */
