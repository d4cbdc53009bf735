// The program's handlers for signals other than crashes keep working under
// the loader: Linux runs a handler with only protection key 0 accessible,
// on the interrupted stack (under a domain's key), so a handler as the
// program installed it would fault on its first push. The loader runs it from a front handler
// on its own key-0 alternate stack with the default domain's rights: it
// can use its frame, TLS and stdio on the main thread, on another thread,
// and when the signal interrupts a domain's code (here `db` sends itself
// the signal with a raw system call, holding no right on the default
// domain); sigaction reports the program's own action. Control: the same
// program without -fdipc prints the same.
// RUN: %dipc-clang -fdipc -O2 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s
// RUN: %clang -I%dipc-include -O2 %s -o %t.plain -lpthread && %t.plain | FileCheck %s
// CHECK: main: sigaction reports the program's handler: 1
// CHECK-NEXT: handler: signal 10, hits on this thread 1
// CHECK-NEXT: handler: signal 10, hits on this thread 2
// CHECK-NEXT: main: db returned 7
// CHECK-NEXT: handler: signal 10, hits on this thread 1
// CHECK-NEXT: thread: double 42
// CHECK-NEXT: main: 3 signals handled, 2 on the main thread
// CHECK-NOT: protection-key fault
#include <dipc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static __thread int hits;
static volatile sig_atomic_t total;

static void on_usr1(int sig) {
  char line[80]; // in the handler's own frame
  ++hits;
  ++total;
  snprintf(line, sizeof line, "handler: signal %d, hits on this thread %d\n",
           sig, hits);
  fputs(line, stdout);
}

// Sends SIGUSR1 to its own thread without libc: db has no right on the
// default domain's memory.
long signalled(long pid, long tid) __dom("db") __entry {
  long r;
  __asm__ volatile("syscall"
                   : "=a"(r)
                   : "a"((long)SYS_tgkill), "D"(pid), "S"(tid),
                     "d"((long)SIGUSR1)
                   : "rcx", "r11", "memory");
  return r == 0 ? 7 : -1;
}

long twice(long v) __dom("db") __entry { return 2 * v; }

static void *thread_main(void *arg) {
  (void)arg;
  raise(SIGUSR1);
  printf("thread: double %ld\n", twice(21));
  return NULL;
}

int main(void) {
  struct sigaction sa = {0}, now;
  sa.sa_handler = on_usr1;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGUSR1, &sa, NULL);
  sigaction(SIGUSR1, NULL, &now);
  printf("main: sigaction reports the program's handler: %d\n",
         now.sa_handler == on_usr1);
  fflush(stdout);
  raise(SIGUSR1);
  long r = signalled(getpid(), syscall(SYS_gettid));
  printf("main: db returned %ld\n", r);
  fflush(stdout);
  pthread_t t;
  pthread_create(&t, NULL, thread_main, NULL);
  pthread_join(t, NULL);
  printf("main: %d signals handled, %d on the main thread\n", (int)total,
         hits);
  return 0;
}
