/* stream_memory.h - runtime memory for the streams libc makes for
 * instrumented code under `sfi` (stream_memory.c, sfi_streams.c). */
#ifndef DIPC_LOADER_STREAM_MEMORY_H
#define DIPC_LOADER_STREAM_MEMORY_H

#include <stddef.h>
#include <stdint.h>

/* Under sfi on a CPU with FSGSBASE: finds libc's code. */
void stream_memory_init(void);

/* A window in which libc's own allocations for the calling thread (a
 * FILE, fmemopen's cookie) come from runtime memory, and libc may free
 * such blocks. One thread at a time. enter returns 0 (and leave then does
 * nothing) where the memory is not available. */
int stream_memory_enter(void);
void stream_memory_leave(int entered);

/* Around domain code libc calls back inside a window (a cookie stream's
 * functions, a signal handler): the window closes, and opens again. */
int stream_memory_suspend(void);
void stream_memory_resume(int suspended);

/* Whether p lies in that memory. */
int stream_memory_holds(const void *p);

/* For malloc and calloc (heap.c): a block for a request of libc's in the
 * calling thread's window, else NULL. */
void *stream_memory_take(size_t size, const void *caller);
/* For free: 0 when p is not such a block; 1 when it was freed (libc, in
 * the window); anything else stops the process. */
int stream_memory_put(void *p, const void *caller);

#endif
