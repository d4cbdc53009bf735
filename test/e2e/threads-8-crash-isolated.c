// Eight threads call into one domain concurrently; the odd ones make it
// crash every 100th call. Each crash becomes DIPC_EFAULT for the thread
// that caused it only: every other call of every thread returns the right
// value, and each thread's KCS is empty at the end. Negative control:
// without -fdipc the first crash kills the whole process.
// RUN: %dipc-clang -fdipc -O2 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s
// RUN: %clang -I%dipc-include -O2 %s -o %t.plain -lpthread
// RUN: not --crash %t.plain 2>&1 | FileCheck %s --check-prefix=PLAIN
// CHECK-COUNT-4: thread {{[0-9]}}: 2000 right, 0 wrong, 0 faults, kcs 0
// CHECK-COUNT-4: thread {{[0-9]}}: 1980 right, 0 wrong, 20 faults, kcs 0
// PLAIN-NOT: right
#include <dipc.h>
#include <pthread.h>
#include <stdio.h>
#ifdef __DIPC__
#include <dipc/rt.h>
#else
static long dipc_kcs_depth(void) { return 0; }
#endif

long add(long a, long b) __dom("calc") __entry {
  if (b == 100)
    return *(volatile long *)0; // a bug the odd threads trigger
  return a + b;
}

static long result[8][4];

static void *run(void *arg) {
  long t = (long)arg, *r = result[t];
  for (long i = 0; i < 2000; ++i) {
    int crash = (t & 1) && i % 100 == 0;
    long v = add(t * 1000000 + i, crash ? 100 : 1);
    if (dipc_errno == DIPC_EFAULT)
      r[2] += crash && v == 0;
    else
      ++r[v == t * 1000000 + i + 1 ? 0 : 1];
  }
  r[3] = dipc_kcs_depth();
  return NULL;
}

int main(void) {
  pthread_t th[8];
  for (long t = 0; t < 8; ++t)
    pthread_create(&th[t], NULL, run, (void *)t);
  for (int t = 0; t < 8; ++t)
    pthread_join(th[t], NULL);
  for (int odd = 0; odd < 2; ++odd)
    for (int t = odd; t < 8; t += 2)
      printf("thread %d: %ld right, %ld wrong, %ld faults, kcs %ld\n", t,
             result[t][0], result[t][1], result[t][2], result[t][3]);
  return 0;
}
