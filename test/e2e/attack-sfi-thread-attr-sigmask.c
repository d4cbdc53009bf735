// A new thread starts with its signals blocked until the loader has set
// it up (rt/stateless_signals.h), unless its attributes name a signal mask
// (glibc then starts it with that one). pthread_attr_setsigmask_np is
// refused to instrumented code, so domain `evil` (no grant) forges one: it
// points its attribute's extension at a record of its own with an empty
// mask, blocks SIGUSR1 itself and creates a thread, which reports whether
// SIGUSR1 reached it unblocked. Attack round 29 had a storm of signals
// there stop the process (a handler run before the thread's state, on its
// own stack: "stack pointer outside the thread's stack"). Under sfi the
// loader refuses the forged mask (EPERM, a line on stderr). Control:
// `none`, where the thread starts with the forged mask.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// SFI: dipc: sfi: a thread attribute's signal mask (forged: pthread_attr_setsigmask_np is refused to instrumented code) refused
// SFI: pthread_create: 1 (Operation not permitted)
// SFI-NEXT: thread started with SIGUSR1 unblocked: no
// NONE: pthread_create: 0 (Success)
// NONE-NEXT: thread started with SIGUSR1 unblocked: yes
#define _GNU_SOURCE
#include <dipc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

/* glibc's pthread_attr_t inside (nptl's struct pthread_attr, 2.32 on). */
struct extension {
  cpu_set_t *cpuset;
  size_t cpusetsize;
  sigset_t sigmask;
  _Bool sigmask_set;
};
struct attr {
  struct sched_param schedparam;
  int schedpolicy, flags;
  size_t guardsize;
  void *stackaddr;
  size_t stacksize;
  struct extension *extension;
  void *unused;
};
_Static_assert(sizeof(struct attr) == sizeof(pthread_attr_t), "layout");

static struct extension forged __dom("evil");
static volatile int unblocked __dom("evil") = -1;

static void *report(void *arg) __dom("evil") {
  (void)arg;
  sigset_t now;
  pthread_sigmask(SIG_BLOCK, NULL, &now);
  unblocked = !sigismember(&now, SIGUSR1);
  return NULL;
}

long attack(void) __dom("evil") __entry {
  sigset_t usr1;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &usr1, NULL);
  pthread_attr_t a;
  pthread_attr_init(&a);
  memset(&forged, 0, sizeof forged);
  forged.sigmask_set = 1; /* an empty mask: every signal unblocked */
  ((struct attr *)&a)->extension = &forged;
  pthread_t t;
  int err = pthread_create(&t, &a, report, NULL);
  if (err == 0)
    pthread_join(t, NULL);
  return err;
}

long result(void) __dom("evil") __entry { return unblocked; }

int main(void) {
  long err = attack();
  printf("pthread_create: %ld (%s)\n", err, strerror((int)err));
  printf("thread started with SIGUSR1 unblocked: %s\n",
         result() == 1 ? "yes" : "no");
  return 0;
}
