// A crash with no cross-domain call pending is not dIPC's: under the
// loader the process dies of the same signal, with the same status, as the
// same source built without -fdipc: 139 for SIGSEGV, 136 for SIGFPE, 132
// for SIGILL, 135 for a SIGBUS sent with raise(), 139 for a SIGSEGV in
// another thread, 134 for abort(), 133 for int3. A cross-domain call ran
// first, so the loader's handler is installed and has been used.
// RUN: %dipc-clang -fdipc -O2 %s -o %t -lpthread
// RUN: %clang -I%dipc-include -O2 %s -o %t.plain -lpthread
// RUN: for how in segv fpe ill kill thread abort int3; do sh -c '"$@"; echo "$2 status $?"' sh %t.plain $how; done > %t.plain.out 2>&1
// RUN: for how in segv fpe ill kill thread abort int3; do sh -c '"$@"; echo "$3 status $?"' sh %dipc-bin-dir/dipc-run %t $how; done > %t.dipc.out 2>&1
// RUN: FileCheck %s < %t.plain.out
// RUN: FileCheck %s < %t.dipc.out
// CHECK: segv status 139
// CHECK: fpe status 136
// CHECK: ill status 132
// CHECK: kill status 135
// CHECK: thread status 139
// CHECK: abort status 134
// CHECK: int3 status 133
#include <dipc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long twice(long x) __dom("calc") __entry { return 2 * x; }

volatile int zero;

static void *crash(void *arg) { return (void *)(long)*(volatile int *)arg; }

int main(int argc, char **argv) {
  if (twice(21) != 42 || argc < 2)
    return 1;
  if (!strcmp(argv[1], "segv"))
    *(volatile int *)0 = 1;
  if (!strcmp(argv[1], "fpe"))
    return 100 / zero;
  if (!strcmp(argv[1], "ill"))
    __builtin_trap();
  if (!strcmp(argv[1], "kill"))
    raise(SIGBUS);
  if (!strcmp(argv[1], "abort"))
    abort();
  if (!strcmp(argv[1], "int3"))
    __builtin_debugtrap();
  pthread_t t;
  if (!strcmp(argv[1], "thread") && !pthread_create(&t, NULL, crash, NULL))
    pthread_join(t, NULL);
  return 0;
}
