// Signal handlers the program registers keep working under the loader: a
// crash with no cross-domain call pending reaches the program's SIGSEGV
// handler (sigaction, SA_SIGINFO) or SIGFPE handler (signal()), which
// siglongjmp back; a crash inside a callee domain is dIPC's and becomes
// DIPC_EFAULT without reaching them. Negative control: without -fdipc the
// callee crash also lands in the program's handler.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,DIPC
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefixes=CHECK,DIPC
// RUN: %clang -I%dipc-include -O2 %s -o %t.plain && %t.plain | FileCheck %s --check-prefixes=CHECK,PLAIN
// CHECK: own segv: handler saw signal 11 at address 0x10
// CHECK-NEXT: own fpe: handler saw signal 8
// DIPC-NEXT: callee segv: returned 0, dipc_errno 14
// PLAIN-NEXT: callee segv: handler saw signal 11 at address 0x20
// CHECK-NEXT: done
#include <dipc.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

long poke(long *p) __dom("worker") __entry { return *(volatile long *)p; }

static sigjmp_buf back;
static volatile int seen_sig;
static void *volatile seen_addr;
static void on_segv(int sig, siginfo_t *info, void *uc) {
  (void)uc;
  seen_sig = sig;
  seen_addr = info->si_addr;
  siglongjmp(back, 1);
}
static void on_fpe(int sig) { seen_sig = sig; siglongjmp(back, 1); }

static volatile int zero;
int main(void) {
  struct sigaction sa = {.sa_sigaction = on_segv, .sa_flags = SA_SIGINFO};
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, NULL);
  signal(SIGFPE, on_fpe);
  if (!sigsetjmp(back, 1))
    *(volatile long *)0x10 = 1;
  printf("own segv: handler saw signal %d at address %p\n", seen_sig, seen_addr);
  if (!sigsetjmp(back, 1))
    printf("%d\n", 100 / zero);
  printf("own fpe: handler saw signal %d\n", seen_sig);
  if (!sigsetjmp(back, 1)) {
    long r = poke((long *)0x20);
    printf("callee segv: returned %ld, dipc_errno %d\n", r, dipc_errno);
  } else
    printf("callee segv: handler saw signal %d at address %p\n", seen_sig, seen_addr);
  printf("done\n");
  return 0;
}
