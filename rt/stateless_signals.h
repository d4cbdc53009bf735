/* stateless_signals.h - the signals a thread blocks while it has no
 * runtime state: from its start until the loader has set it up
 * (loader/threads.c), and from its exit hook on (thread.c). The loader's
 * handler would find no state then, and under sfi a program handler
 * cannot run without one (nothing could keep the context it interrupted
 * from it): a process's signals go to another thread meanwhile, a
 * thread's own wait. Faults stay unblocked (a blocked one kills: the
 * seccomp filter's SIGSYS traps, a later destructor's crash, which is
 * recovered), and so do the call time-outs. Self-contained. */
#ifndef DIPC_RT_STATELESS_SIGNALS_H
#define DIPC_RT_STATELESS_SIGNALS_H

#include <dipc/rt.h>
#include <signal.h>

static inline void dipc_stateless_signals(sigset_t *set) {
  static const int faults[] = {SIGSEGV, SIGBUS,  SIGILL,
                               SIGFPE,  SIGTRAP, SIGSYS, DIPC_TIMEOUT_SIGNAL};
  sigfillset(set);
  for (unsigned i = 0; i < sizeof faults / sizeof *faults; i++)
    sigdelset(set, faults[i]);
}

#endif
