// Threads starting and ending under a storm of signals with a program
// handler (a 50 µs SIGALRM), under mpk: a thread gets its alternate signal
// stack before its first gate and keeps it until it is gone (the runtime's
// exit hook and later trapped calls run gates too). Before, a signal
// landing while the thread made its state, or after its alternate stack
// was freed, had its frame on a stack of the runtime's key: the handler
// faulted on its first push and the crash handler's frames ran down
// through the thread states (SIGSEGV, every run of 200 threads).
// The period was 20 µs: on a VM whose timer then really fires every 20 µs
// (49,000 signals a second measured, against 2,200 at other times) a
// signal's handling (its gates and sigreturn) outlasts the period and the
// main thread never gets past pthread_create (the test hit lit's time-out,
// old and new loaders alike); at 50 µs 1,000 threads take a fraction of a
// second and still meet some 20,000 signals a second.
// Under sfi (-fdipc-sfi) the program's handler runs with the context its
// signal interrupted kept in the thread's runtime state: a signal that
// came while a new thread was being set up, or after its exit hook, found
// none and its handler did not run (hundreds a run, each said on stderr).
// A thread now starts with every signal blocked until it is set up, and
// blocks them at its exit hook.
// RUN: %dipc-clang -fdipc -O2 %s -o %t -lpthread
// RUN: %if pku %{ %dipc-bin-dir/dipc-run --backend=mpk %t 1000 2>&1 | FileCheck %s %}
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 1000 2>&1 | FileCheck %s --check-prefixes=SFI,CHECK
// SFI-NOT: does not run
// CHECK: 1000 threads: 1000 right, signals handled: yes
#include <dipc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

long add(long a, long b) __dom("calc") __entry { return a + b; }

static volatile long signals;

static void on_signal(int sig) {
  (void)sig;
  signals++;
}

static void *body(void *arg) {
  long i = (long)arg;
  return (void *)(long)(add(i, 1) == i + 1 && dipc_errno == 0);
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 200, right = 0;
  struct sigaction act = {.sa_handler = on_signal, .sa_flags = SA_RESTART};
  sigemptyset(&act.sa_mask);
  sigaction(SIGALRM, &act, NULL);
  struct itimerval every = {{0, 50}, {0, 50}};
  setitimer(ITIMER_REAL, &every, NULL);
  for (long i = 0; i < n; i++) {
    pthread_t t;
    void *r;
    if (pthread_create(&t, NULL, body, (void *)i) == 0 &&
        pthread_join(t, &r) == 0)
      right += r != NULL;
  }
  setitimer(ITIMER_REAL, &(struct itimerval){0}, NULL);
  printf("%ld threads: %ld right, signals handled: %s\n", n, right,
         signals > 0 ? "yes" : "no");
  return 0;
}
