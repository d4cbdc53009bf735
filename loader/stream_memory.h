/* stream_memory.h - where libc's own allocations go while it works for
 * instrumented code under `sfi`: runtime memory for the streams it makes
 * (stream_memory.c, sfi_streams.c), libc's heap for its process-wide
 * state. */
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

/* A window in which libc's and the dynamic linker's own allocations for
 * the calling thread come from libc's heap, whichever domain runs: the
 * process-wide state libc keeps and follows later on every domain's
 * behalf (a locale's records, the character converters with their
 * function pointers, time zones, the environment). Made in the running
 * domain's heap, a domain rewrote them: an attack round's domain with no
 * grant pointed the decimal point at vault's secret, and made libc call
 * its own code while vault printed a wide string. Under `sfi` only (libc
 * runs unchecked there), while a domain with a heap of its own runs;
 * enter returns 0 (and leave does nothing) elsewhere. */
int libc_state_enter(void);
void libc_state_leave(int entered);
/* For the allocator (heap.c): whether a request of caller's (a return
 * address) is one of libc's, the dynamic linker's or the loader's inside
 * this thread's window. */
int libc_state_serves(const void *caller);

/* Returns call's result, made in a libc-state window. */
#define LIBC_STATE(type, call)                                                 \
  do {                                                                         \
    int w_ = libc_state_enter();                                               \
    type r_ = (call);                                                          \
    libc_state_leave(w_);                                                      \
    return r_;                                                                 \
  } while (0)

/* Around domain code libc calls back inside a window (a cookie stream's
 * functions, a signal handler): the windows close, and open again. */
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
