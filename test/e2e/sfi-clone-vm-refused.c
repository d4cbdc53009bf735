// clone(2)'s wrapper makes a thread past the pthread_create wrapper: it
// has no runtime state of its own and shares its creator's (the %gs base
// is inherited), under `sfi` the running domain, shadow stack and KCS of a
// thread that may be in another domain's call. Refused to instrumented
// code under `sfi` when the child shares the memory (CLONE_VM), with a
// message (loader/sfi_syscalls.c); a fork-like clone still works. Under
// `none` (control) the thread is made and runs.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O1 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-clang -fdipc -O1 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// SFI: dipc: sfi: clone refused to the running domain
// SFI: thread clone: refused (Operation not permitted)
// SFI: fork-like clone: child exit 7
// NONE: thread clone: made, the thread ran
// NONE: fork-like clone: child exit 7
#define _GNU_SOURCE
#include <dipc.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

long add(long a, long b) __dom("calc") __entry { return a + b; }

static volatile int thread_ran;
static int thread_body(void *a) {
  (void)a;
  thread_ran = 1;
  return 0;
}
static int child(void *a) {
  (void)a;
  return 7;
}

int main(void) {
  add(1, 2);
  enum { SIZE = 1 << 16 };
  char *stack = malloc(SIZE), *stack2 = malloc(SIZE);
  int tid = clone(thread_body, stack + SIZE,
                  CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
                      CLONE_THREAD | CLONE_SYSVSEM,
                  NULL);
  if (tid < 0) {
    printf("thread clone: refused (%s)\n", strerror(errno));
  } else {
    for (int i = 0; i < 100 && !thread_ran; i++)
      usleep(10000);
    printf("thread clone: made, the thread %s\n",
           thread_ran ? "ran" : "did not run");
  }
  int pid = clone(child, stack2 + SIZE, SIGCHLD, NULL), status = 0;
  if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
    printf("fork-like clone: child exit %d\n", WEXITSTATUS(status));
  else
    printf("fork-like clone: failed\n");
  fflush(stdout);
  return 0;
}
