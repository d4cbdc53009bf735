/* signals.h - the loader's crash-signal handler and the program's own
 * signal handlers, chained behind the loader's. */
#ifndef DIPC_LOADER_SIGNALS_H
#define DIPC_LOADER_SIGNALS_H

#include <signal.h>
#include <stdint.h>

/* Decides whether a crash belongs to a cross-domain callee; if so it
 * rewrites the context to resume the caller and returns 1, else 0. */
typedef int (*fault_recovery_fn)(void *ucontext);

/* Explains a fault that is about to end the process (no handler). */
typedef void (*fault_report_fn)(int sig, const siginfo_t *info);

/* Installs the handler for SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGSYS (the
 * seccomp filter's traps, which it hands to dipc_syscall_trap); once. */
int signals_install(fault_recovery_fn recover, fault_report_fn report);

/* Gives the calling thread the alternate stack the handler runs on. */
int signals_setup_thread(void);

/* A longjmp to a frame whose stack pointer is target_sp is about to leave
 * the loader's handlers: gives their thread its whole alternate stack
 * back. */
void signals_jumping(uintptr_t target_sp);

#endif
