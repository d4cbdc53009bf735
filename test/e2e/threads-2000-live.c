// 2,000 threads live at once under dipc-run, each having made a
// cross-domain call (and so holding its own runtime state, unsafe stack
// and callee stack) before it blocks on a barrier with the main thread.
// Past the barrier the main thread checks every call's result and that the
// states are 2,000 distinct ones; then all exit and are joined, and one
// more thread still gets a state. Small thread stacks keep the memory
// down (the VM lane has 4 GiB).
// RUN: %dipc-clang -fdipc -O2 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s
// CHECK: 2000 threads created, 0 errors
// CHECK: 2000 right calls, 2000 distinct states, kcs 0
// CHECK: 2000 joined; one more thread: right call
#include <dipc.h>
#include <dipc/rt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 2000

long add(long a, long b) __dom("calc") __entry { return a + b; }

static pthread_barrier_t barrier;
static struct {
  long right, kcs;
  void *state;
} seen[N + 1];

static void *run(void *arg) {
  long i = (long)arg;
  long v = add(i, 1000);
  seen[i].right = dipc_errno == 0 && v == i + 1000;
  seen[i].state = dipc_thread_state();
  seen[i].kcs = dipc_kcs_depth();
  if (i < N)
    pthread_barrier_wait(&barrier);
  return NULL;
}

static int by_address(const void *a, const void *b) {
  void *x = *(void *const *)a, *y = *(void *const *)b;
  return x < y ? -1 : x > y;
}

int main(void) {
  static pthread_t th[N];
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 64 * 1024);
  pthread_barrier_init(&barrier, NULL, N + 1);
  long errors = 0, created = 0;
  for (long i = 0; i < N; ++i) {
    int err = pthread_create(&th[i], &attr, run, (void *)i);
    if (err)
      ++errors;
    else
      ++created;
  }
  printf("%ld threads created, %ld errors\n", created, errors);
  fflush(stdout);
  if (errors)
    return 1;
  pthread_barrier_wait(&barrier); /* all N are live and have called */
  static void *states[N];
  long right = 0, kcs = 0, distinct = 0;
  for (long i = 0; i < N; ++i) {
    right += seen[i].right;
    kcs += seen[i].kcs;
    states[i] = seen[i].state;
  }
  qsort(states, N, sizeof *states, by_address);
  for (long i = 0; i < N; ++i)
    distinct += states[i] && (i == 0 || states[i] != states[i - 1]);
  printf("%ld right calls, %ld distinct states, kcs %ld\n", right, distinct,
         kcs);
  long joined = 0;
  for (long i = 0; i < N; ++i)
    joined += pthread_join(th[i], NULL) == 0;
  pthread_t one;
  int err = pthread_create(&one, &attr, run, (void *)(long)N);
  if (!err)
    pthread_join(one, NULL);
  printf("%ld joined; one more thread: %s\n", joined,
         err ? "not created" : seen[N].right ? "right call" : "wrong call");
  return 0;
}
