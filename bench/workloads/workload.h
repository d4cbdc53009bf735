/* workload.h - what each workload of scripts/bench-workloads.sh defines
 * for harness.c, the same way in every build (plain, -fdipc, -fdipc
 * -fdipc-sfi). The work itself runs in a named domain, called through
 * its entries, in the dIPC builds. */
#ifndef DIPC_WORKLOAD_H
#define DIPC_WORKLOAD_H

/* Its name in the report. */
extern const char workload_name[];
/* Before the runs, not timed; 0 or -1. */
int workload_prepare(void);
/* One timed run. Stores what it computed in *result (the same in every
 * run and every build: the script compares builds); 0 or -1. */
int workload_run(unsigned long long *result);
/* After the runs, not timed: 0 if the last run's output is right. */
int workload_check(unsigned long long result);

#endif
