/* thread_state.h - whether this thread has runtime state of its own, as
 * the loader tells: gs at a slot of the thread region whose recorded fs
 * base is this thread's (clone() copies gs to new threads; a thread that
 * never crossed a domain has gs 0). Needs the runtime vector mapped. */
#ifndef DIPC_LOADER_THREAD_STATE_H
#define DIPC_LOADER_THREAD_STATE_H

#include <dipc/abi.h>
#include <stdint.h>

#include "../rt/layout.h"

/* The gs base of this thread's own state, or 0 if it has none. */
static inline uintptr_t loader_own_state(void) {
  uintptr_t gs, fs;
  __asm__ volatile("rdgsbase %0" : "=r"(gs));
  uintptr_t lo = *(const volatile uintptr_t *)DIPC_VECTOR_THREADS_LO,
            hi = *(const volatile uintptr_t *)DIPC_VECTOR_THREADS_HI;
  if (gs < lo || gs >= hi || (gs - lo) % RT_THREAD_STRIDE != 0)
    return 0;
  __asm__ volatile("rdfsbase %0" : "=r"(fs));
  return *(const volatile uintptr_t *)(gs + DIPC_FSBASE_GS_OFFSET) == fs ? gs
                                                                          : 0;
}

#endif
