// A thread other than the main one crashes outside any cross-domain call:
// the program's SIGSEGV handler runs as without dIPC and can use the
// thread's TLS (a __thread counter, errno, stdio) because the TCB and
// static TLS of every thread are default-domain memory, and its stack
// (siglongjmp back into the thread's frames) because the loader's handler
// leaves the runtime with the default domain's image. The thread's own
// frames lie on stack-key pages: a domain reads a local array of its start
// routine. Either the handler jumps back (twice, counting in TLS) or it
// exits with a status computed from TLS. Same output and status as the
// same source built without -fdipc. Under sfi (-fdipc-sfi) the same: the
// compiled check sends the denied access to the sfi trap page
// (DIPC_SFI_TRAP_ADDR), and the loader hands the program's handler the
// address the program wrote (0x10, 0x18) as si_addr.
// RUN: %dipc-clang -fdipc -O2 %s -o %t -lpthread
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lpthread
// RUN: %clang -I%dipc-include -O2 %s -o %t.plain -lpthread
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t jump 2>&1 | FileCheck %s --check-prefix=JUMP %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi jump 2>&1 | FileCheck %s --check-prefix=JUMP
// RUN: %dipc-bin-dir/dipc-run --backend=none %t jump 2>&1 | FileCheck %s --check-prefix=JUMP
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi jump 2>&1 | FileCheck %s --check-prefix=JUMP
// RUN: %t.plain jump 2>&1 | FileCheck %s --check-prefix=JUMP
// RUN: %if pku %{ sh -c '"$@"; echo "status $?"' sh %dipc-bin-dir/dipc-run %t exit 2>&1 | FileCheck %s --check-prefix=EXIT %}
// RUN: sh -c '"$@"; echo "status $?"' sh %dipc-bin-dir/dipc-run --backend=sfi %t.sfi exit 2>&1 | FileCheck %s --check-prefix=EXIT
// RUN: sh -c '"$@"; echo "status $?"' sh %dipc-bin-dir/dipc-run --backend=none %t.sfi exit 2>&1 | FileCheck %s --check-prefix=EXIT
// RUN: sh -c '"$@"; echo "status $?"' sh %t.plain exit 2>&1 | FileCheck %s --check-prefix=EXIT
// JUMP: sum 10 errno 0
// JUMP-NEXT: handler: signal 11 at 0x10, crash 1, errno 33
// JUMP-NEXT: thread: back 1, local 7, errno 33
// JUMP-NEXT: handler: signal 11 at 0x18, crash 2, errno 34
// JUMP-NEXT: thread: back 2, local 7, errno 34
// JUMP-NEXT: main: thread done
// EXIT: handler: signal 11 at 0x10, crash 1, errno 33
// EXIT-NEXT: status 41
// EXIT-NOT: main
#include <dipc.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

long sum(const long *v, int n) __dom("calc") __entry {
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i];
  return s;
}

static __thread int crashes;
static __thread sigjmp_buf back;
static int exit_from_handler;

static void on_segv(int sig, siginfo_t *info, void *uc) {
  (void)uc;
  errno = 32 + ++crashes;
  printf("handler: signal %d at %p, crash %d, errno %d\n", sig, info->si_addr,
         crashes, errno);
  fflush(stdout);
  if (exit_from_handler)
    _exit(40 + crashes);
  siglongjmp(back, crashes);
}

static void *run(void *arg) {
  (void)arg;
  long v[4] = {1, 2, 3, 4}; // in the routine's frame
  long s = sum(v, 4);
  printf("sum %ld errno %d\n", s, dipc_errno);
  volatile int local = 7;
  int n = sigsetjmp(back, 1);
  if (n > 0)
    printf("thread: back %d, local %d, errno %d\n", n, local, errno);
  if (n < 2)
    *(volatile long *)(0x10 + 8L * n) = 1;
  return NULL;
}

int main(int argc, char **argv) {
  exit_from_handler = argc > 1 && strcmp(argv[1], "exit") == 0;
  struct sigaction sa = {.sa_sigaction = on_segv, .sa_flags = SA_SIGINFO};
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, NULL);
  pthread_t t;
  pthread_create(&t, NULL, run, NULL);
  pthread_join(t, NULL);
  printf("main: thread done\n");
  return 0;
}
