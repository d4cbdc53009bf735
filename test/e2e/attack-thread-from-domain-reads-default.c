// A thread runs its start routine as the domain that created it, never as
// the default domain (docs/runtime.md §2, "Threads created in a domain").
// Domain `evil` has no rights on the default domain's memory; it creates a
// thread whose start routine reads and overwrites a secret of the default
// domain. Under `sfi` the routine runs as evil: the read faults, the
// thread's call returns 0 (dipc_errno 14) and the secret is intact. Under
// `mpk` evil cannot even run glibc's pthread_create (it writes the default
// domain's thread list): that call faults and evil's caller gets
// DIPC_EFAULT. Control: under `none` the routine reads and overwrites it.
// Under every backend domain `spy`, with the write grant on the default
// domain that glibc's pthread_create needs under mpk, creates a thread that
// asks for the default domain's owner handle to `vault` (a thread running
// as the default domain gets it, and with it the means to grant itself
// vault's memory) and reads vault's secret: refused, and the read faults
// under mpk and sfi; under `none` the read succeeds.
// RUN: %dipc-clang -fdipc -O1 %s -o %t -lpthread
// RUN: %dipc-clang -fdipc -fdipc-sfi -O1 %s -o %t.sfi -lpthread
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=MPK %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=NONE
// MPK: evil_spawn returned 0, dipc_errno 14
// MPK-NEXT: secret: intact
// SFI: thread ran as evil: yes
// SFI-NEXT: thread returned 0, dipc_errno 0
// SFI-NEXT: evil_spawn returned 1, dipc_errno 0
// SFI-NEXT: secret: intact
// MPK-NEXT: spy's thread: ran as spy, owner handle refused, read 0
// SFI-NEXT: spy's thread: ran as spy, owner handle refused, read 0
// NONE: thread ran as evil: yes
// NONE-NEXT: thread returned 5ec2e7, dipc_errno 0
// NONE-NEXT: evil_spawn returned 1, dipc_errno 0
// NONE-NEXT: secret: overwritten
// NONE-NEXT: spy's thread: ran as spy, owner handle refused, read 2a
#include <dipc.h>
#include <dipc/rt.h>
#include <pthread.h>
#include <stdio.h>

long default_secret = 0x5ec2e7;

// What evil's thread saw and returned: evil's own memory.
static long thread_result __dom("evil");
static long thread_dom __dom("evil"), spawner_dom __dom("evil");

static void *evil_thread(void *p) __dom("evil");
static void *evil_thread(void *p) {
  thread_dom = dipc_current_domain();
  long v = *(volatile long *)p;
  *(volatile long *)p = 666;
  return (void *)v;
}

long evil_spawn(long *p) __dom("evil") __entry {
  spawner_dom = dipc_current_domain();
  pthread_t t;
  if (pthread_create(&t, NULL, evil_thread, p) != 0)
    return -1;
  void *r = (void *)-1;
  pthread_join(t, &r);
  thread_result = (long)r;
  return 1;
}

long evil_result(void) __dom("evil") __entry { return thread_result; }
long evil_same_dom(void) __dom("evil") __entry {
  return thread_dom == spawner_dom && thread_dom != 0;
}

static long vault_secret __dom("vault") = 42;
long vault_touch(void) __dom("vault") __entry { return vault_secret; }

static long spy_dom __dom("spy"), spy_thread_dom __dom("spy");
static long spy_named __dom("spy");
static void *spy_thread(void *p) __dom("spy");
static void *spy_thread(void *p) {
  spy_thread_dom = dipc_current_domain();
  spy_named = dipc_domain_named("vault");
  return (void *)*(volatile long *)p;
}
long spy_spawn(long *p) __dom("spy") __entry __perm("default", write) {
  spy_dom = dipc_current_domain();
  pthread_t t;
  if (pthread_create(&t, NULL, spy_thread, p) != 0)
    return -1;
  void *r = (void *)-1;
  pthread_join(t, &r);
  printf("spy's thread: %s, owner handle %s, read %lx\n",
         spy_thread_dom == spy_dom && spy_dom != 0 ? "ran as spy"
                                                   : "did NOT run as spy",
         spy_named == -DIPC_EPERM ? "refused" : "GIVEN", (long)r);
  return 0;
}

int main(void) {
  long r = evil_spawn(&default_secret);
  int err = dipc_errno;
  if (r == 1) {
    printf("thread ran as evil: %s\n", evil_same_dom() ? "yes" : "no");
    printf("thread returned %lx, dipc_errno %d\n", evil_result(),
           dipc_errno);
  }
  printf("evil_spawn returned %ld, dipc_errno %d\n", r, err);
  printf("secret: %s\n", default_secret == 0x5ec2e7 ? "intact" : "overwritten");
  fflush(stdout);
  vault_touch();
  spy_spawn(&vault_secret);
  return 0;
}
