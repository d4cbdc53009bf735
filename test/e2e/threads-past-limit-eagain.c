// Past the runtime's thread limit pthread_create fails with EAGAIN; the
// process goes on. DIPC_MAX_THREADS lowers the limit (4096 slots) to 64
// so that the test is cheap: the main thread holds one slot, so 63
// threads are created (each blocked on a semaphore), the next creations
// fail with EAGAIN. Once they exit and are joined, their slots are
// reused: 63 more threads are created and run. A program without any
// annotation, as the issue had it.
// RUN: %dipc-clang -fdipc -O2 %s -o %t -lpthread
// RUN: env DIPC_MAX_THREADS=64 %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s
// RUN: env DIPC_MAX_THREADS=64 %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s
// CHECK: round 0: 63 created, then 3 x EAGAIN, 0 other errors; 63 ran
// CHECK: round 1: 63 created, then 3 x EAGAIN, 0 other errors; 63 ran
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

#define MAX 200

static sem_t go;
static int ran[MAX];

static void *run(void *arg) {
  sem_wait(&go);
  ran[(long)arg] = 1;
  return NULL;
}

int main(void) {
  sem_init(&go, 0, 0);
  for (int round = 0; round < 2; ++round) {
    pthread_t th[MAX];
    long created = 0, eagain = 0, other = 0;
    for (long i = 0; i < MAX && eagain < 3; ++i) {
      int err = pthread_create(&th[created], NULL, run, (void *)created);
      if (!err)
        ++created;
      else if (err == EAGAIN)
        ++eagain;
      else
        ++other;
    }
    for (long i = 0; i < created; ++i)
      sem_post(&go);
    long joined = 0;
    for (long i = 0; i < created; ++i)
      joined += pthread_join(th[i], NULL) == 0 && ran[i];
    for (long i = 0; i < MAX; ++i)
      ran[i] = 0;
    printf("round %d: %ld created, then %ld x EAGAIN, %ld other errors; "
           "%ld ran\n",
           round, created, eagain, other, joined);
  }
  return 0;
}
