/* threads.h - per-thread set-up for threads the program creates. */
#ifndef DIPC_LOADER_THREADS_H
#define DIPC_LOADER_THREADS_H

/* Runs in every new thread before its start routine. */
typedef int (*thread_setup_fn)(void);

void threads_set_setup(thread_setup_fn setup);

#endif
