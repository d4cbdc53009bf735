// A signal the program handles (here SIGUSR1; the benchmarks' SIGCHLD)
// reaches its handler under sfi too: the loader enters the recovery gate
// with no context before running the handler, which must recover nothing
// (it used to read the missing context and crash the process). A
// cross-domain call still works after it.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s
// CHECK: handler ran 1 time(s)
// CHECK-NEXT: call returned 42, dipc_errno 0
#include <dipc.h>
#include <signal.h>
#include <stdio.h>

int answer(int x) __dom("worker") __entry { return x + 1; }

static volatile sig_atomic_t runs;
static void on_usr1(int sig) {
  (void)sig;
  runs++;
}

int main(void) {
  signal(SIGUSR1, on_usr1);
  raise(SIGUSR1);
  printf("handler ran %d time(s)\n", (int)runs);
  int r = answer(41);
  printf("call returned %d, dipc_errno %d\n", r, dipc_errno);
  return 0;
}
