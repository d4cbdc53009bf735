/* notify.c - SIGEV_THREAD notifications (timer_create, mq_notify). glibc
 * runs them on a helper thread it creates itself, past the pthread_create
 * wrapper (threads.c): a thread with no runtime state, as the default
 * domain. Under `mpk` its first malloc makes an arena, whose trim then
 * traps to a runtime that cannot serve it (the filter's munmap trap,
 * rt/exec.c): the process died of SIGSYS at the first expiry. Under `sfi`
 * a domain's function would run there with the default domain's rights.
 * Both are refused, with a message; SIGEV_SIGNAL, or SIGEV_THREAD_ID to a
 * thread of the program, work. Otherwise a notification function runs as
 * the default domain and may not call entries (docs/runtime.md). */
#define _GNU_SOURCE
#include "interpose.h"
#include "sfi_intercept.h"

#include <dipc/rt.h>
#include <errno.h>
#include <mqueue.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define EXPORT __attribute__((visibility("default")))

/* Whether sev asks for SIGEV_THREAD where it cannot work (said on
 * stderr); checked: the caller is instrumented code under `sfi`. */
static int refused(const char *call, const struct sigevent *sev,
                   int checked) {
  if (!sev)
    return 0;
  if (checked)
    SFI_READ(sev, sizeof *sev);
  if (sev->sigev_notify != SIGEV_THREAD)
    return 0;
  const char *why = NULL;
  if (!strcmp(dipc_backend(), "mpk"))
    why = "under the mpk backend (libc's notification thread has no runtime "
          "state)";
  else if (checked && dipc_current_domain() != 0)
    why = "to a domain under sfi (libc's notification thread would run its "
          "function as the default domain)";
  if (!why)
    return 0;
  fprintf(stderr,
          "dipc: %s: SIGEV_THREAD is not supported %s; use SIGEV_SIGNAL or "
          "SIGEV_THREAD_ID\n",
          call, why);
  errno = ENOTSUP;
  return 1;
}

typedef int (*timer_create_fn)(clockid_t, struct sigevent *, timer_t *);

EXPORT int timer_create(clockid_t clock, struct sigevent *restrict sev,
                        timer_t *restrict timer) {
  int checked = SFI_CHECKED();
  if (checked)
    SFI_WRITE(timer, sizeof *timer);
  if (refused("timer_create", sev, checked))
    return -1;
  timer_create_fn real = INTERPOSE_NEXT(timer_create_fn, "timer_create");
  return real(clock, sev, timer);
}

typedef int (*mq_notify_fn)(mqd_t, const struct sigevent *);

EXPORT int mq_notify(mqd_t mq, const struct sigevent *sev) {
  if (refused("mq_notify", sev, SFI_CHECKED()))
    return -1;
  mq_notify_fn real = INTERPOSE_NEXT(mq_notify_fn, "mq_notify");
  return real(mq, sev);
}
