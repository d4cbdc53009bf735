// A POSIX timer whose expiry runs a function on a thread (SIGEV_THREAD):
// glibc runs it on a helper thread of its own, which the loader never set
// up. Under `none` and `sfi` a plain function runs there and the timer
// works. Under `mpk` the process died of SIGSYS at the first expiry (the
// helper's arena trim trapped to a runtime with no state for the thread):
// now timer_create refuses it with ENOTSUP and says why (loader/notify.c),
// and a SIGEV_SIGNAL timer still works. A named domain's SIGEV_THREAD
// timer is refused under `sfi` too: its function would run there as the
// default domain, with that domain's rights (created under `none`).
// RUN: %dipc-clang -fdipc -O1 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefixes=WORKS,NONE
// RUN: %dipc-clang -fdipc -fdipc-sfi -O1 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefixes=WORKS,SFI
// RUN: %if pku %{ %dipc-bin-dir/dipc-run --backend=mpk %t 2>&1 | FileCheck %s --check-prefix=MPK %}
// WORKS: SIGEV_THREAD timer: created, its function ran with 41
// WORKS: SIGEV_SIGNAL timer: created, its signal came
// NONE: domain d's SIGEV_THREAD timer: created
// SFI: dipc: timer_create: SIGEV_THREAD is not supported to a domain under sfi
// SFI: domain d's SIGEV_THREAD timer: refused (Operation not supported)
// MPK: dipc: timer_create: SIGEV_THREAD is not supported under the mpk backend
// MPK: SIGEV_THREAD timer: refused (Operation not supported)
// MPK: SIGEV_SIGNAL timer: created, its signal came
#include <dipc.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

long add(long a, long b) __dom("calc") __entry { return a + b; }

static volatile long ran_with = -1;
static volatile sig_atomic_t signalled;

static void on_expiry(union sigval v) { ran_with = v.sival_int; }
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

static void d_expiry(union sigval v) __dom("d") { (void)v; }

// A timer of domain d's own, deleted at once.
long d_timer(void) __dom("d") __entry __perm("default", write) {
  struct sigevent sev = {.sigev_notify = SIGEV_THREAD,
                         .sigev_notify_function = d_expiry};
  timer_t t;
  if (timer_create(CLOCK_MONOTONIC, &sev, &t) != 0) {
    printf("domain d's SIGEV_THREAD timer: refused (%s)\n", strerror(errno));
    return -1;
  }
  timer_delete(t);
  printf("domain d's SIGEV_THREAD timer: created\n");
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
  d_timer();
  return 0;
}
