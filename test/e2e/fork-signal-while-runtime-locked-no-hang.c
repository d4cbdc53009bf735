// Signals with a program handler arriving while the thread forks: between
// the runtime's pthread_atfork prepare and parent gates the thread holds
// the runtime's locks, and the handler's signal frame (the loader's
// front handler entering the runtime) must not take them again. SIGCHLD
// from children that exit at once and a SIGALRM timer hit that window
// often: every 20 µs, or twice the time a fork takes here if that is more
// (a process-wide signal arriving during fork's system call restarts it:
// a timer faster than a fork would never let one finish); 2000 forks
// (fewer on a slow machine, said so). A watchdog thread reports a hang
// instead of the test timing out.
// Under mpk: fork-signal-while-runtime-locked-under-mpk.c.
// RUN: %dipc-clang -fdipc -O2 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2000 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2000 2>&1 | FileCheck %s
// CHECK: [[N:[0-9]+]] forks: [[N]] reaped, calls right: yes, signals handled: yes
// CHECK-NOT: hung
#include <dipc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

long add(long a, long b) __dom("calc") __entry { return a + b; }

static volatile long signals;
static volatile int done;

static void on_signal(int sig) {
  (void)sig;
  signals++;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *watchdog(void *arg) {
  (void)arg;
  double deadline = now() + 60;
  while (!done && now() < deadline)
    usleep(100000); /* the timer's signals cut it short */
  if (!done) {
    printf("hung: a fork did not return within 60 s\n");
    fflush(stdout);
    _exit(1);
  }
  return NULL;
}

int main(int argc, char **argv) {
  long forks = argc > 1 ? atol(argv[1]) : 2000, want = forks, reaped = 0;
  int right = add(2, 3) == 5 && dipc_errno == 0; /* the thread's state */
  struct sigaction act = {.sa_handler = on_signal};
  sigemptyset(&act.sa_mask);
  act.sa_flags = SA_RESTART;
  sigaction(SIGCHLD, &act, NULL);
  sigaction(SIGALRM, &act, NULL);
  /* What a fork takes here, before any signal: the timer's period. */
  double fork_time = 0;
  for (int i = 0; i < 10; i++) {
    double t = now();
    pid_t pid = fork();
    if (pid == 0)
      _exit(0);
    fork_time += now() - t;
    if (pid > 0)
      waitpid(pid, NULL, 0);
  }
  long period = (long)(2 * fork_time / 10 * 1e6);
  if (period < 20)
    period = 20;
  printf("a fork takes %.0f us: SIGALRM every %ld us\n", fork_time / 10 * 1e6,
         period);
  fflush(stdout);
  pthread_t w;
  pthread_create(&w, NULL, watchdog, NULL);
  struct itimerval every = {{0, period}, {0, period}};
  setitimer(ITIMER_REAL, &every, NULL);
  double start = now();
  for (long i = 0; i < forks; i++) {
    pid_t pid = fork();
    if (pid == 0)
      _exit(0);
    if (pid > 0 && waitpid(pid, NULL, 0) == pid)
      reaped++;
    if (i == 49 && (now() - start) / 50 * forks > 30) /* a slow machine */
      forks = (long)(30 / ((now() - start) / 50)) > 100
                  ? (long)(30 / ((now() - start) / 50))
                  : 100;
    right = right && add(i, 1) == i + 1 && dipc_errno == 0;
  }
  setitimer(ITIMER_REAL, &(struct itimerval){0}, NULL);
  done = 1;
  pthread_join(w, NULL);
  if (forks != want)
    printf("slow machine: %ld forks instead of %ld\n", forks, want);
  printf("%ld forks: %ld reaped, calls right: %s, signals handled: %s\n",
         forks, reaped, right ? "yes" : "no", signals > 0 ? "yes" : "no");
  return 0;
}
