/* threads.h - per-thread set-up for threads the program creates. */
#ifndef DIPC_LOADER_THREADS_H
#define DIPC_LOADER_THREADS_H

#include <pthread.h>

/* Runs in every new thread before its start routine. */
typedef int (*thread_setup_fn)(void);

void threads_set_setup(thread_setup_fn setup);

/* Under sfi, a thread's attributes from instrumented code, copied once
 * into *copy (another thread could change them after the check) and
 * checked: readable, and a stack they name writable by the running
 * domain (the new thread's code does not check accesses to its own
 * frames: a stack on another domain's pages would read them). */
const pthread_attr_t *threads_checked_attr(const pthread_attr_t *attr,
                                           pthread_attr_t *copy);

#endif
