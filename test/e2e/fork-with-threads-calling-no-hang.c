// fork() while 4 threads keep making cross-domain calls, every 50th of
// which crashes its callee (the caller gets DIPC_EFAULT): the runtime's
// locks must not be inherited held by a thread the child does not have.
// Each child makes a right call and a crashing one (every 40th child on a
// new thread as well), and exits with their outcome; the parent waits for
// each with a timeout and counts children that exited right, wrongly, or
// hung (then killed). 800 forks; on a
// machine so slow that they would take over 80 s (the VM lane's emulated
// CPU, timed on the first 20) fewer, and the test says so. The workers' counts show every call's outcome too.
// RUN: %dipc-clang -fdipc -O2 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run %t 800 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 800 2>&1 | FileCheck %s
// CHECK: [[N:[0-9]+]] forks: [[N]] ok, 0 wrong, 0 hung
// CHECK: workers: 0 wrong, 0 bad faults, {{[1-9][0-9]*}} faults
#include <dipc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

long add(long a, long b) __dom("calc") __entry {
  if (b == 100)
    return *(volatile long *)0; // crash: the caller gets DIPC_EFAULT
  return a + b;
}

static volatile int stop;
static long wrong[4], bad_faults[4], faults[4];

/* One right call and one crashing call; 1 when both behave. */
static int call_pair(long x) {
  long v = add(x, 1);
  if (dipc_errno != 0 || v != x + 1)
    return 0;
  add(x, 100);
  return dipc_errno == DIPC_EFAULT;
}

static void *pair_thread(void *arg) {
  return (void *)(long)call_pair((long)arg);
}

static void *worker(void *arg) {
  long t = (long)arg;
  for (long i = 0; !stop; ++i) {
    int crash = i % 50 == 0;
    long v = add(t * 1000000 + i, crash ? 100 : 1);
    if (dipc_errno == DIPC_EFAULT)
      ++*(crash ? &faults[t] : &bad_faults[t]);
    else if (crash || v != t * 1000000 + i + 1)
      ++wrong[t];
  }
  return NULL;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* 0 exited right, 1 wrong, 2 hung (killed). */
static int one_fork(long i, double timeout) {
  pid_t pid = fork();
  if (pid < 0) {
    perror("fork");
    exit(2);
  }
  if (pid == 0) {
    int ok = call_pair(i);
    if (i % 40 == 0) { /* the child's runtime takes new threads too */
      pthread_t t;
      void *r = NULL;
      ok = ok && pthread_create(&t, NULL, pair_thread, (void *)i) == 0 &&
           pthread_join(t, &r) == 0 && r == (void *)1;
    }
    _exit(ok ? 0 : 1);
  }
  double deadline = now() + timeout;
  int status;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return 2;
    }
    nanosleep(&(struct timespec){0, 200000}, NULL);
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
  long forks = argc > 1 ? atol(argv[1]) : 800, want = forks;
  pthread_t th[4];
  for (long t = 0; t < 4; ++t)
    pthread_create(&th[t], NULL, worker, (void *)t);
  long count[3] = {0};
  double timeout = 10, start = now(), timed = 0;
  for (long i = 0; i < forks; ++i) {
    double t0 = now();
    int outcome = one_fork(i, timeout);
    ++count[outcome];
    if (outcome != 2) /* a hung child says nothing of the machine's speed */
      timed += now() - t0;
    if (i == 19) {
      double each = timed / (20 - count[2] > 0 ? 20 - count[2] : 1);
      if (forks * each > 80)
        forks = (long)(80 / each) > 40 ? (long)(80 / each) : 40;
      if (timeout < 100 * each)
        timeout = 100 * each;
    }
  }
  stop = 1;
  for (int t = 0; t < 4; ++t)
    pthread_join(th[t], NULL);
  if (forks != want)
    printf("slow machine (%.0f ms a fork): %ld forks instead of %ld\n",
           (now() - start) * 1000 / forks, forks, want);
  printf("%ld forks: %ld ok, %ld wrong, %ld hung\n", forks, count[0],
         count[1], count[2]);
  long w = 0, b = 0, f = 0;
  for (int t = 0; t < 4; ++t)
    w += wrong[t], b += bad_faults[t], f += faults[t];
  printf("workers: %ld wrong, %ld bad faults, %ld faults\n", w, b, f);
  return 0;
}
