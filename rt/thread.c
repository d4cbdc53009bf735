/* thread.c - per-thread emulated CODOMs state. */
#include "internal.h"

static __thread void **pending_recovery;

void dipc_thread_arm_recovery(void **buf) { pending_recovery = buf; }
