/* xproc_entries.h - dIPC between two processes (docs/cross-process.md):
 * the entries of domain "bench_proc", defined by dipc-bench-xproc-server
 * (xproc_server.c, run with dipc-run --listen) and called by
 * dipc-bench-xproc (xproc_caller.c, run with --connect), with the Low and
 * High policies of domain_entries.h. */
#ifndef DIPC_BENCH_XPROC_ENTRIES_H
#define DIPC_BENCH_XPROC_ENTRIES_H

#include "domain_entries.h"

#ifdef __cplusplus
extern "C" {
#endif

int proc_low_increment(int x) __dom("bench_proc") __entry;
int proc_high_increment(int x) __dom("bench_proc") __entry
    __iso_callee(BENCH_HIGH_POLICY);
/* x + 1 after one system call (getppid) made by the callee's code: the
 * calling thread delegates it to the callee process. */
int proc_syscall_increment(int x) __dom("bench_proc") __entry;

/* The callers (xproc_caller.c): one cross-process call each. */
int dipc_proc_low_call(int x);
int dipc_proc_high_call(int x);
int dipc_proc_syscall_call(int x);

#ifdef __cplusplus
}
#endif

#endif
