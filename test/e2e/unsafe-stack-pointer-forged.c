// The unsafe stack pointer (%gs:DIPC_USP_GS_OFFSET, in the thread's public
// page) is writable by every domain, of every thread. A domain that forges
// it cannot make another domain lay its escaping locals over a stack:
// - `evil` points it at its caller's stack and calls back into the default
//   domain (`refill`, which has an escaping buffer): refill's prologue sees
//   a pointer outside the unsafe-stack region and stops with ud2; the fault
//   is in evil's callee, so evil gets DIPC_EFAULT and the caller's locals
//   are intact;
// - `evil` leaves a forged pointer behind when it returns: the proxy puts
//   back the caller's, and the caller's next function with escaping locals
//   works as before.
// The check is in the compiled code, so `none` behaves the same.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -O0 %s -o %t.o0
// RUN: %dipc-bin-dir/dipc-run %t.o0 2>&1 | FileCheck %s
// CHECK: forged into the caller's stack: refill returned 0 (dipc_errno 14 in evil); canary intact
// CHECK-NEXT: forged and left behind: dipc_errno 0; refill returned 88
#include <dipc.h>
#include <stdio.h>

#define CANARY 0xca7a2157ca7a2157L

__attribute__((noinline)) static void fill(char *b, long n) {
  for (long i = 0; i < n; ++i)
    b[i] = 'X';
  b[n] = 0;
}

/* Makes a local escape (as lending it to another domain would). */
#define ESCAPE(p) __asm__ volatile("" : : "r"(p) : "memory")

/* An entry of the default domain, called back by evil: its buffer
 * escapes, so it lives on the unsafe stack. */
long refill(long n) __entry {
  char buf[256];
  ESCAPE(buf);
  fill(buf, n);
  return buf[0];
}

static void forge_usp(long to) __dom("evil") {
  __asm__ volatile("movq %0, %%gs:%c1" : : "r"(to), "i"(DIPC_USP_GS_OFFSET)
                   : "memory");
}

long forge_and_call(long to) __dom("evil") __entry {
  forge_usp(to);
  long r = refill(200);
  return r + 1000 * dipc_errno;
}

long forge_and_leave(long to) __dom("evil") __entry {
  forge_usp(to);
  return 0;
}

int main(void) {
  long canary[4];
  for (volatile int i = 0; i < 4; ++i)
    canary[i] = CANARY;
  long sp;
  __asm__ volatile("mov %%rsp, %0" : "=r"(sp));
  long r = forge_and_call(sp);
  int intact = 1;
  for (volatile int i = 0; i < 4; ++i)
    intact &= canary[i] == CANARY;
  printf("forged into the caller's stack: refill returned %ld (dipc_errno %ld "
         "in evil); canary %s\n",
         r % 1000, r / 1000, intact ? "intact" : "CHANGED");

  forge_and_leave(0x1000);
  int err = dipc_errno;
  /* A plain call: refill's prologue reads the pointer the proxy put back
   * (0x1000 would stop it with ud2). */
  r = refill(4);
  printf("forged and left behind: dipc_errno %d; refill returned %ld\n", err,
         r);
  return 0;
}
