/* notify.c - SIGEV_THREAD notifications (timer_create, mq_notify). glibc
 * runs each on a thread it creates itself, past the pthread_create
 * wrapper (threads.c): its gs still names the runtime state of the thread
 * that started glibc's helper thread. So under `sfi` and `none` the
 * loader hands glibc a trampoline of its own instead of the function:
 * there the thread gets its own alternate stack and runtime state, then
 * calls the function as the domain that asked for the notification (a
 * callback proxy, dipc_domain_callback), which may call entries like any
 * code. The function and its value wait in a table of the loader's
 * (runtime memory under `sfi`: no domain rewrites where it goes). Under
 * `mpk` the notification thread's first free makes an arena, whose trim
 * traps (the filter's munmap trap, rt/exec.c) before the trampoline
 * runs, to a runtime that cannot serve a thread it does not know: the
 * process died of SIGSYS at the first expiry. There SIGEV_THREAD is
 * refused, with a message; SIGEV_SIGNAL, or SIGEV_THREAD_ID to a thread
 * of the program, work. */
#define _GNU_SOURCE
#include "interpose.h"
#include "sfi_intercept.h"
#include "signals.h"
#include "threads.h"

#include <dipc/rt.h>
#include <errno.h>
#include <mqueue.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define EXPORT __attribute__((visibility("default")))

int *__dipc_errno_location_gate(void);

/* Notifications asked for (each runs `run` with `value`): never freed, a
 * timer's deletion is not the loader's to see; the same pair is kept once. */
enum { MAX_NOTIFY = 256 };
static struct notify_call {
  void (*run)(union sigval);
  union sigval value;
} calls[MAX_NOTIFY];
static unsigned num_calls;
static pthread_mutex_t calls_lock = PTHREAD_MUTEX_INITIALIZER;

/* glibc's notification thread: sigev_value is the index + 1. */
static void notify_start(union sigval v) {
  unsigned i = (unsigned)v.sival_int - 1;
  if (i >= __atomic_load_n(&num_calls, __ATOMIC_ACQUIRE))
    return;
  if (signals_setup_thread() != 0)
    return;
  (void)__dipc_errno_location_gate(); /* this thread's own state */
  calls[i].run(calls[i].value);
}

/* *sev with the trampoline in place of its function, in *mine; 0, or -1
 * when no proxy or no room is left (errno set, said on stderr). */
static int redirect(const char *call, const struct sigevent *sev,
                    struct sigevent *mine) {
  void *run = dipc_domain_callback((void *)sev->sigev_notify_function, 1);
  if (!run) {
    fprintf(stderr, "dipc: %s: no proxy into the calling domain for its "
                    "SIGEV_THREAD function\n", call);
    errno = ENOMEM;
    return -1;
  }
  pthread_mutex_lock(&calls_lock);
  unsigned i = 0;
  while (i < num_calls && (calls[i].run != run ||
                           calls[i].value.sival_ptr != sev->sigev_value.sival_ptr))
    i++;
  if (i == num_calls && num_calls < MAX_NOTIFY) {
    calls[i].run = (void (*)(union sigval))run;
    calls[i].value = sev->sigev_value;
    __atomic_store_n(&num_calls, num_calls + 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&calls_lock);
  if (i == MAX_NOTIFY) {
    fprintf(stderr, "dipc: %s: more than %d SIGEV_THREAD notifications\n",
            call, MAX_NOTIFY);
    errno = EAGAIN;
    return -1;
  }
  *mine = *sev;
  mine->sigev_notify_function = notify_start;
  mine->sigev_value.sival_int = (int)i + 1;
  return 0;
}

/* The sigevent to hand glibc for sev: a copy of it read once (with the
 * trampoline for SIGEV_THREAD), never sev, which another thread could
 * turn into SIGEV_THREAD with a function of its choosing after this looked
 * (an attack's race had libc's thread call puts on a secret); NULL when it
 * is refused (errno set, said on stderr). checked: the caller is
 * instrumented code under `sfi`, and the copy (with the notification
 * thread's attributes) is in the thread's scratch area, where that other
 * thread cannot write either; else it is *on_stack. Give it back with
 * notification_done. */
static struct sigevent *notification(const char *call,
                                     const struct sigevent *sev, int checked,
                                     struct sigevent *on_stack) {
  if (!sev)
    return NULL;
  struct sigevent *mine = on_stack;
  if (checked && !(mine = sfi_copy_in(call, sev, sizeof *sev)))
    return NULL;
  if (!checked)
    memcpy(mine, sev, sizeof *mine);
  /* The notification thread's attributes, as pthread_create's. */
  pthread_attr_t *attr;
  if (checked && mine->sigev_notify == SIGEV_THREAD) {
    if (threads_checked_attr(call, mine->sigev_notify_attributes, &attr) != 0)
      goto refused;
    mine->sigev_notify_attributes = attr;
  }
  if (mine->sigev_notify != SIGEV_THREAD)
    return mine;
  if (!strcmp(dipc_backend(), "mpk")) {
    fprintf(stderr,
            "dipc: %s: SIGEV_THREAD is not supported under the mpk backend "
            "(libc's notification thread has no runtime state); use "
            "SIGEV_SIGNAL or SIGEV_THREAD_ID\n",
            call);
    errno = ENOTSUP;
    goto refused;
  }
  if (checked)
    sfi_check_callee((const void *)mine->sigev_notify_function);
  if (redirect(call, mine, mine) == 0)
    return mine;
refused:
  if (checked)
    sfi_copy_done(mine);
  return NULL;
}

static void notification_done(struct sigevent *use, int checked) {
  if (checked)
    sfi_copy_done(use);
}

typedef int (*timer_create_fn)(clockid_t, struct sigevent *, timer_t *);

EXPORT int timer_create(clockid_t clock, struct sigevent *restrict sev,
                        timer_t *restrict timer) {
  int checked = SFI_CHECKED();
  if (checked)
    SFI_WRITE(timer, sizeof *timer);
  struct sigevent on_stack;
  struct sigevent *use =
      notification("timer_create", sev, checked, &on_stack);
  if (sev && !use)
    return -1;
  timer_create_fn real = INTERPOSE_NEXT(timer_create_fn, "timer_create");
  int r = real(clock, use, timer);
  notification_done(use, checked);
  return r;
}

typedef int (*mq_notify_fn)(mqd_t, const struct sigevent *);

EXPORT int mq_notify(mqd_t mq, const struct sigevent *sev) {
  int checked = SFI_CHECKED();
  struct sigevent on_stack;
  struct sigevent *use = notification("mq_notify", sev, checked, &on_stack);
  if (sev && !use)
    return -1;
  mq_notify_fn real = INTERPOSE_NEXT(mq_notify_fn, "mq_notify");
  int r = real(mq, use);
  notification_done(use, checked);
  return r;
}
