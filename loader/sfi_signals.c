/* sfi_signals.c - interceptors (sfi_intercept.h) of the signal-set and
 * signal-mask functions, which libc (or the kernel, for libc) writes into
 * the caller's memory: a sigset_t filled by sigfillset, or the old mask of
 * sigprocmask, written over the domain's own row of the rights matrix
 * would give it every right. sigaction is signals.c's, sigaltstack
 * sfi_syscalls.c's. */
#define _GNU_SOURCE
#include "sfi_intercept.h"

#include <pthread.h>
#include <signal.h>

#define SET_R(s) SFI_READ((s), sizeof(sigset_t))
#define SET_W(s) SFI_WRITE((s), sizeof(sigset_t))

SFI_EXPORT int sigemptyset(sigset_t *set) {
  if (SFI_CHECKED())
    SET_W(set);
  return NEXT(sigemptyset)(set);
}

SFI_EXPORT int sigfillset(sigset_t *set) {
  if (SFI_CHECKED())
    SET_W(set);
  return NEXT(sigfillset)(set);
}

SFI_EXPORT int sigaddset(sigset_t *set, int sig) {
  if (SFI_CHECKED())
    SET_W(set);
  return NEXT(sigaddset)(set, sig);
}

SFI_EXPORT int sigdelset(sigset_t *set, int sig) {
  if (SFI_CHECKED())
    SET_W(set);
  return NEXT(sigdelset)(set, sig);
}

SFI_EXPORT int sigismember(const sigset_t *set, int sig) {
  if (SFI_CHECKED())
    SET_R(set);
  return NEXT(sigismember)(set, sig);
}

SFI_EXPORT int sigisemptyset(const sigset_t *set) {
  if (SFI_CHECKED())
    SET_R(set);
  return NEXT(sigisemptyset)(set);
}

SFI_EXPORT int sigandset(sigset_t *dest, const sigset_t *left,
                         const sigset_t *right) {
  if (SFI_CHECKED()) {
    SET_R(left);
    SET_R(right);
    SET_W(dest);
  }
  return NEXT(sigandset)(dest, left, right);
}

SFI_EXPORT int sigorset(sigset_t *dest, const sigset_t *left,
                        const sigset_t *right) {
  if (SFI_CHECKED()) {
    SET_R(left);
    SET_R(right);
    SET_W(dest);
  }
  return NEXT(sigorset)(dest, left, right);
}

/* The masks: the new one read, the old one written (each when given). */
#define MASKS(set, old)                                                        \
  do {                                                                         \
    if (set)                                                                   \
      SET_R(set);                                                              \
    if (old)                                                                   \
      SET_W(old);                                                              \
  } while (0)

SFI_EXPORT int sigprocmask(int how, const sigset_t *set, sigset_t *old) {
  if (SFI_CHECKED())
    MASKS(set, old);
  return NEXT(sigprocmask)(how, set, old);
}

SFI_EXPORT int pthread_sigmask(int how, const sigset_t *set, sigset_t *old) {
  if (SFI_CHECKED())
    MASKS(set, old);
  return NEXT(pthread_sigmask)(how, set, old);
}

SFI_EXPORT int sigpending(sigset_t *set) {
  if (SFI_CHECKED())
    SET_W(set);
  return NEXT(sigpending)(set);
}

SFI_EXPORT int sigsuspend(const sigset_t *set) {
  if (SFI_CHECKED())
    SET_R(set);
  return NEXT(sigsuspend)(set);
}

SFI_EXPORT int sigwait(const sigset_t *set, int *sig) {
  if (SFI_CHECKED()) {
    SET_R(set);
    SFI_WRITE(sig, sizeof *sig);
  }
  return NEXT(sigwait)(set, sig);
}

SFI_EXPORT int sigwaitinfo(const sigset_t *set, siginfo_t *info) {
  if (SFI_CHECKED()) {
    SET_R(set);
    if (info)
      SFI_WRITE(info, sizeof *info);
  }
  return NEXT(sigwaitinfo)(set, info);
}

SFI_EXPORT int sigtimedwait(const sigset_t *set, siginfo_t *info,
                            const struct timespec *timeout) {
  if (SFI_CHECKED()) {
    SET_R(set);
    if (info)
      SFI_WRITE(info, sizeof *info);
    if (timeout)
      SFI_READ(timeout, sizeof *timeout);
  }
  return NEXT(sigtimedwait)(set, info, timeout);
}
