// A POSIX timer whose expiry runs a function on a thread (SIGEV_THREAD):
// glibc runs it on a thread it creates itself, which the loader never set
// up, and whose gs still named the runtime state of another thread. Under
// `none` and `sfi` the loader now hands glibc a trampoline that gives the
// thread its own state and runs the function as the domain that armed the
// timer (loader/notify.c): the main program's function calls an entry
// from there (it crashed before), domain d's runs as d (under `sfi` it was
// refused: it would have run as the default domain). Under `mpk` the
// process died of SIGSYS at the first expiry (the helper's arena trim
// trapped to a runtime with no state for the thread): timer_create
// refuses it with ENOTSUP and says why, and a SIGEV_SIGNAL timer works.
// RUN: %dipc-clang -fdipc -O1 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=WORKS
// RUN: %dipc-clang -fdipc -fdipc-sfi -O1 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=WORKS
// RUN: %if pku %{ %dipc-bin-dir/dipc-run --backend=mpk %t 2>&1 | FileCheck %s --check-prefix=MPK %}
// WORKS: SIGEV_THREAD timer: created, its function ran with 41
// WORKS: SIGEV_SIGNAL timer: created, its signal came
// WORKS: domain d's SIGEV_THREAD timer: its function ran as d
// MPK: dipc: timer_create: SIGEV_THREAD is not supported under the mpk backend
// MPK: SIGEV_THREAD timer: refused (Operation not supported)
// MPK: SIGEV_SIGNAL timer: created, its signal came
// MPK: domain d's SIGEV_THREAD timer: refused (Operation not supported)
#include <dipc.h>
#include <dipc/rt.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

long add(long a, long b) __dom("calc") __entry { return a + b; }

static volatile long ran_with = -1;
static volatile sig_atomic_t signalled;

/* A cross-domain call from glibc's notification thread. */
static void on_expiry(union sigval v) { ran_with = add(v.sival_int - 1, 1); }
static void on_signal(int sig) { signalled = sig; }

// Arms a 1 ms one-shot timer notifying as sev says; waits up to 1 s for
// done() to hold. What happened, on stdout.
static void try_timer(const char *name, struct sigevent *sev,
                      int (*done)(void)) {
  timer_t t;
  if (timer_create(CLOCK_MONOTONIC, sev, &t) != 0) {
    printf("%s timer: refused (%s)\n", name, strerror(errno));
    return;
  }
  struct itimerspec once = {.it_value = {0, 1000000}};
  timer_settime(t, 0, &once, NULL);
  for (int i = 0; i < 100 && !done(); i++)
    usleep(10000);
  timer_delete(t);
  printf("%s timer: created, %s\n", name,
         done() ? (sev->sigev_notify == SIGEV_THREAD ? "its function ran with 41"
                                                      : "its signal came")
                : "nothing came");
}

static volatile long d_ran_as = -1;
static void d_expiry(union sigval v) __dom("d") {
  (void)v;
  d_ran_as = dipc_current_domain();
}

long d_self(void) __dom("d") __entry { return dipc_current_domain(); }

// A timer of domain d's own: which domain its function runs as.
long d_timer(void) __dom("d") __entry __perm("default", write) {
  struct sigevent sev = {.sigev_notify = SIGEV_THREAD,
                         .sigev_notify_function = d_expiry};
  timer_t t;
  if (timer_create(CLOCK_MONOTONIC, &sev, &t) != 0) {
    printf("domain d's SIGEV_THREAD timer: refused (%s)\n", strerror(errno));
    return -1;
  }
  struct itimerspec once = {.it_value = {0, 1000000}};
  timer_settime(t, 0, &once, NULL);
  for (int i = 0; i < 100 && d_ran_as < 0; i++)
    usleep(10000);
  timer_delete(t);
  return 0;
}

static int function_ran(void) { return ran_with == 41; }
static int signal_came(void) { return signalled == SIGUSR1; }

int main(void) {
  add(1, 2); // the thread's runtime state, as in any dIPC program
  struct sigevent thread = {.sigev_notify = SIGEV_THREAD,
                            .sigev_notify_function = on_expiry,
                            .sigev_value.sival_int = 41};
  try_timer("SIGEV_THREAD", &thread, function_ran);
  signal(SIGUSR1, on_signal);
  struct sigevent sig = {.sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1};
  try_timer("SIGEV_SIGNAL", &sig, signal_came);
  fflush(stdout);
  if (d_timer() == 0)
    printf("domain d's SIGEV_THREAD timer: its function ran as %s\n",
           d_ran_as == d_self() ? "d"
           : d_ran_as < 0       ? "never"
                                : "another domain");
  return 0;
}
