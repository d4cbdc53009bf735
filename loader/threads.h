/* threads.h - per-thread set-up for threads the program creates. */
#ifndef DIPC_LOADER_THREADS_H
#define DIPC_LOADER_THREADS_H

#include <pthread.h>

/* Runs in every new thread before its start routine. */
typedef int (*thread_setup_fn)(void);

void threads_set_setup(thread_setup_fn setup);

/* Under sfi, a thread's attributes from instrumented code, copied once
 * into the thread's scratch area with what they point to (the affinity
 * set), where no thread of the domain can change them after the check
 * (sfi_copy_in), and checked: readable, and a stack they name writable by
 * the running domain (the new thread's code does not check accesses to
 * its own frames: a stack on another domain's pages would read them).
 * *copy is NULL for no attributes; 0, or -1 with errno set when refused.
 * Given back with sfi_copy_done once libc has read them. */
int threads_checked_attr(const char *call, const pthread_attr_t *attr,
                         pthread_attr_t **copy);

#endif
