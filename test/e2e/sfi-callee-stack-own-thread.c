// Under `sfi` a callee stack is its thread's alone (dipc/sfi.h,
// DIPC_SFI_TAG_STACK): the checks allow its pages only to the thread it
// belongs to, running as its domain. What a domain does with its own
// stack through pointers must keep working there, on every thread: a
// variable-sized local (in the stack's data mirror, dipc/sfi.h) filled
// through a helper, copied with a run-time length (the range check), read into by
// libc (the loader's check) and formatted into; and a local whose address
// another thread is given, which the compiler moves to the unsafe stack,
// stays shared. The same lines under `none`, where nothing is checked.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s
// CHECK-DAG: thread 0: sum 2016, copy 2016, read 'pipe-0', text 'n=64'
// CHECK-DAG: thread 1: sum 2016, copy 2016, read 'pipe-1', text 'n=64'
// CHECK-DAG: thread 2: sum 2016, copy 2016, read 'pipe-2', text 'n=64'
// CHECK: shared local: 3 threads added 3
// CHECK: run returned 0, dipc_errno 0
#include <dipc.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

long run(int n) __dom("work") __entry __perm("default", write);

// Not inlined: its pointer is one the checks must look up.
__attribute__((noinline)) static void fill(unsigned char *p, int n) {
  for (int i = 0; i < n; i++)
    p[i] = (unsigned char)i;
}

struct job {
  int index, n;
  int *shared; // a local of run's, on the unsafe stack
  pthread_mutex_t *lock;
};

static void *worker(void *arg) {
  struct job *j = arg;
  unsigned char vla[j->n], copy[256];
  fill(vla, j->n);
  memcpy(copy, vla, (size_t)j->n);
  long sum = 0, copied = 0;
  for (int i = 0; i < j->n; i++)
    sum += vla[i], copied += copy[i];

  int fds[2];
  char got[16] = "";
  char text[16];
  if (pipe(fds) == 0) {
    char msg[16];
    int len = snprintf(msg, sizeof msg, "pipe-%d", j->index);
    (void)!write(fds[1], msg, (size_t)len);
    ssize_t r = read(fds[0], got, sizeof got - 1);
    got[r > 0 ? r : 0] = '\0';
    close(fds[0]);
    close(fds[1]);
  }
  snprintf(text, sizeof text, "n=%d", j->n);
  printf("thread %d: sum %ld, copy %ld, read '%s', text '%s'\n", j->index,
         sum, copied, got, text);
  pthread_mutex_lock(j->lock);
  ++*j->shared;
  pthread_mutex_unlock(j->lock);
  return NULL;
}

long run(int n) {
  int shared = 0;
  pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  struct job jobs[3];
  pthread_t t[3];
  for (int i = 0; i < 3; i++) {
    jobs[i] = (struct job){i, n, &shared, &lock};
    if (pthread_create(&t[i], NULL, worker, &jobs[i]) != 0)
      return -1;
  }
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);
  printf("shared local: 3 threads added %d\n", shared);
  return 0;
}

int main(void) {
  long r = run(64);
  printf("run returned %ld, dipc_errno %d\n", r, dipc_errno);
  return r != 0;
}
