/* internal.h - declarations shared by the files of libdipc; nothing here is
 * exported. */
#ifndef DIPC_RT_INTERNAL_H
#define DIPC_RT_INTERNAL_H

#define DIPC_HIDDEN __attribute__((visibility("hidden")))

/* errno.c; dipc.h declares it only for -fdipc code. */
int *__dipc_errno_location(void);

/* Records `buf` (a __builtin_setjmp buffer) for the next KCS entry pushed on
 * this thread. */
DIPC_HIDDEN void dipc_thread_arm_recovery(void **buf);

#endif
