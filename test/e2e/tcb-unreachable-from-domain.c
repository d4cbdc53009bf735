// Every thread's TCB and static TLS are default-domain memory (key 0), the
// main thread's as well as those glibc puts at the top of a thread's stack
// block, like the thread's stack itself: on every thread a domain without
// access to the default domain cannot read the stack canary at %fs:0x28
// (its read faults and the caller gets DIPC_EFAULT), a domain with
// __perm("default", read) can, and a local the caller lends (on the unsafe
// stack, under the shared key 2) reaches the first one.
// Negative control: with `none` every read succeeds.
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefixes=CHECK,NONE
// MPK: main: tcb key 0, tls key 0, stack key 0, lent local key 2
// MPK-NEXT: main: canary unreadable (dipc_errno 14), trusted reader ok, stack ok
// NONE: main: canary readable, trusted reader ok, stack ok
// MPK-NEXT: thread: tcb key 0, tls key 0, stack key 0, lent local key 2
// MPK-NEXT: thread: canary unreadable (dipc_errno 14), trusted reader ok, stack ok
// NONE-NEXT: thread: canary readable, trusted reader ok, stack ok
// CHECK-NEXT: done
#include <ctype.h>
#include <dipc.h>
#include <dipc/rt.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "Inputs/pkey-of.h"

static long read_canary(void) {
  long v;
  __asm__ volatile("mov %%fs:0x28, %0" : "=r"(v));
  return v;
}

long probe(void) __dom("probe") __entry { return read_canary() != 0; }
long trusted(void) __dom("trusted") __entry __perm("default", read) {
  return read_canary() != 0;
}
long touch(long *p) __dom("probe") __entry { return ++*p; }


static __thread int tls_var;

static void report(const char *who) {
  long local = 1;
  uintptr_t tcb;
  __asm__("mov %%fs:0, %0" : "=r"(tcb));
  if (strcmp(dipc_backend(), "mpk") == 0)
    printf("%s: tcb key %d, tls key %d, stack key %d, lent local key %d\n",
           who, pkey_of((void *)tcb), pkey_of(&tls_var),
           pkey_of(__builtin_frame_address(0)), pkey_of(&local));
  long canary = probe();
  int err = dipc_errno;
  long ok = trusted();
  int trusted_err = dipc_errno;
  long stack = touch(&local);
  if (err)
    printf("%s: canary unreadable (dipc_errno %d)", who, err);
  else
    printf("%s: canary %s", who, canary ? "readable" : "zero");
  printf(", trusted reader %s, stack %s\n",
         ok && !trusted_err ? "ok" : "failed",
         stack == 2 && local == 2 ? "ok" : "failed");
}

static void *run(void *arg) {
  (void)arg;
  report("thread");
  return NULL;
}

int main(void) {
  report("main");
  pthread_t t;
  pthread_create(&t, NULL, run, NULL);
  pthread_join(t, NULL);
  printf("done\n");
  return 0;
}
