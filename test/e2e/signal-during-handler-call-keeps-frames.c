// A signal handler's cross-domain calls keep the handler's frames intact.
// The handler runs on the loader's alternate stack; its callee runs on the
// callee's. A signal while the callee runs (its own crash, or a signal it
// raises) used to get its frame at the top of the alternate stack, over
// the handler's: the crash killed the process under every backend. Now the
// crash returns DIPC_EFAULT to the handler, a nested handler runs, and the
// handler's locals and the interrupted code are as they were. Jumping out
// of handlers (siglongjmp) many times leaves the alternate stack whole.
// Not under `mpk` yet (loader/signals.c: the stack is not disarmed there).
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s
// CHECK: round 1: crash returned 0 (dipc_errno 14), ring returned 7 after 1 nested handler(s), locals intact
// CHECK-NEXT: round 2: crash returned 0 (dipc_errno 14), ring returned 7 after 2 nested handler(s), locals intact
// CHECK-NEXT: round 3: crash returned 0 (dipc_errno 14), ring returned 7 after 3 nested handler(s), locals intact
// CHECK-NEXT: main: local intact
// CHECK-NEXT: jumped out of 200 handlers
// CHECK-NEXT: round 4: crash returned 0 (dipc_errno 14), ring returned 7 after 4 nested handler(s), locals intact
#include <dipc.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

long poke(long *p) __dom("worker") __entry { return *(volatile long *)p; }

/* raise() reads the thread's TCB: the default domain's memory (mpk). */
long ring(int sig) __dom("worker") __entry __perm("default", write) {
  raise(sig);
  return 7;
}

static volatile sig_atomic_t nested;
static void on_usr2(int sig) {
  (void)sig;
  volatile char scribble[4096]; /* what would land on the outer frames */
  for (unsigned i = 0; i < sizeof scribble; i++)
    scribble[i] = 0x55;
  nested++;
}

static volatile long crashed = -1, rang = -1;
static volatile int crash_errno = -1, intact = -1;
static void on_usr1(int sig) {
  (void)sig;
  volatile unsigned char mine[1024];
  for (unsigned i = 0; i < sizeof mine; i++)
    mine[i] = (unsigned char)(i * 7 + 1);
  crashed = poke((long *)0x20);
  crash_errno = dipc_errno;
  rang = ring(SIGUSR2);
  int ok = 1;
  for (unsigned i = 0; i < sizeof mine; i++)
    ok &= mine[i] == (unsigned char)(i * 7 + 1);
  intact = ok;
}

static sigjmp_buf out;
static void on_alrm(int sig) {
  (void)sig;
  siglongjmp(out, 1);
}

static void round_of(int n) {
  raise(SIGUSR1);
  printf("round %d: crash returned %ld (dipc_errno %d), ring returned %ld "
         "after %d nested handler(s), locals %s\n",
         n, crashed, crash_errno, rang, (int)nested,
         intact ? "intact" : "overwritten");
}

int main(void) {
  signal(SIGUSR1, on_usr1);
  signal(SIGUSR2, on_usr2);
  signal(SIGALRM, on_alrm);
  volatile long keep = 0x1234567890abcdefL;
  for (int n = 1; n <= 3; n++)
    round_of(n);
  printf("main: local %s\n", keep == 0x1234567890abcdefL ? "intact" : "overwritten");
  volatile int jumps = 0;
  while (jumps < 200)
    if (sigsetjmp(out, 1) == 0)
      raise(SIGALRM);
    else
      jumps++;
  printf("jumped out of %d handlers\n", jumps);
  round_of(4);
  fflush(stdout);
  return 0;
}
