// A child forked before any cross-domain call makes the first calls of its
// imports itself: each is resolved in the child (the slot checked, the
// proxy requested), and a callee crash there is recovered. Under mpk the
// child cannot open its own /proc/PID (Landlock opened only the parent's,
// loader/landlock.c), which the runtime must not need for this.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s
// CHECK: child: twice(21) = 42, crash -> 0 with dipc_errno 14
// CHECK-NEXT: child exited with status 0
// CHECK-NEXT: parent: twice(4) = 8
#include <dipc.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

long twice(long x) __dom("calc") __entry { return 2 * x; }
long crash(long x) __dom("calc") __entry {
  return x ? *(volatile long *)0 : 0; /* SIGSEGV */
}

int main(void) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    long t = twice(21);
    long c = crash(1);
    printf("child: twice(21) = %ld, crash -> %ld with dipc_errno %d\n", t, c,
           dipc_errno);
    fflush(stdout);
    _exit(t == 42 && dipc_errno == DIPC_EFAULT ? 0 : 1);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid)
    return 2;
  if (WIFEXITED(status))
    printf("child exited with status %d\n", WEXITSTATUS(status));
  else
    printf("child died of signal %d\n", WTERMSIG(status));
  printf("parent: twice(4) = %ld\n", twice(4));
  return 0;
}
