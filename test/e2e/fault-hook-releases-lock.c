// A domain's fault hook (dipc_set_fault_hook) runs as the domain, on the
// thread whose call into it crashed, before that thread's caller resumes:
// here it releases the mutex the dead call held, so another thread's call
// gets the lock. Without the hook the mutex stays locked (the other
// thread's timed lock gives up). The caller still sees DIPC_EFAULT; a hook
// that crashes itself returns early and is not run again for that; the
// default domain cannot set a hook, and a hook must be the domain's code.
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 %s -o %t.sj0 -lpthread
// RUN: %dipc-bin-dir/dipc-run %t.sj0 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sj0 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 %s -o %t.try2 -lpthread
// RUN: %dipc-bin-dir/dipc-run %t.try2 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O2 %s -o %t.sj2 -lpthread
// RUN: %dipc-bin-dir/dipc-run %t.sj2 2>&1 | FileCheck %s
// Under sfi the trampoline keeps what it resumes in the thread's state.
// RUN: %dipc-clang -fdipc -fdipc-sfi -fdipc-recovery=setjmp -O2 %s -o %t.sfi -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s
// CHECK: no hook: crash errno 14, other thread: lock still held
// CHECK-NEXT: set from default: -1, set to data: -22, set: 0
// CHECK-NEXT: with hook: crash errno 14, hook runs 1, other thread: got the lock, kcs 0
// CHECK-NEXT: 100 more crashes: errno 14 each: yes, hook runs 101, other thread: got the lock
// CHECK-NEXT: crashing hook: crash errno 14, hook runs 102, kcs 0
// CHECK-NEXT: next call: 1 errno 0
#define _GNU_SOURCE
#include <dipc.h>
#include <dipc/rt.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static pthread_mutex_t db_lock __dom("db") = PTHREAD_MUTEX_INITIALIZER;
static long hook_runs __dom("db");
static int hook_crashes __dom("db");

static void db_on_fault(void) __dom("db");
static void db_on_fault(void) {
  hook_runs++;
  if (hook_crashes)
    *(volatile int *)0 = 1;
  pthread_mutex_unlock(&db_lock); // held by this thread's dead call
}

long db_work(int crash) __dom("db") __entry __perm("default", read);
long db_work(int crash) {
  pthread_mutex_lock(&db_lock);
  if (crash)
    *(volatile int *)0 = 1;
  pthread_mutex_unlock(&db_lock);
  return 1;
}

// 1 if the lock is free within 200 ms (and released again), 0 if not.
long db_try_lock(void) __dom("db") __entry __perm("default", read);
long db_try_lock(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  t.tv_nsec += 200000000;
  if (t.tv_nsec >= 1000000000) {
    t.tv_sec++;
    t.tv_nsec -= 1000000000;
  }
  if (pthread_mutex_timedlock(&db_lock, &t) != 0)
    return 0;
  pthread_mutex_unlock(&db_lock);
  return 1;
}

long db_set_hook(long which) __dom("db") __entry __perm("default", read);
long db_set_hook(long which) {
  return dipc_set_fault_hook(which ? db_on_fault
                                   : (void (*)(void))(void *)&hook_runs);
}

long db_hook_runs(long crash_in_hook) __dom("db") __entry
    __perm("default", read);
long db_hook_runs(long crash_in_hook) {
  hook_crashes = (int)crash_in_hook;
  return hook_runs;
}

long db_unlock(void) __dom("db") __entry __perm("default", read);
long db_unlock(void) { return pthread_mutex_unlock(&db_lock); }

static long other;
static void *other_thread(void *arg) {
  (void)arg;
  other = db_try_lock();
  return NULL;
}

static const char *other_thread_result(void) {
  pthread_t t;
  pthread_create(&t, NULL, other_thread, NULL);
  pthread_join(t, NULL);
  return other ? "got the lock" : "lock still held";
}

int main(void) {
  db_work(1);
  int err = dipc_errno;
  printf("no hook: crash errno %d, other thread: %s\n", err,
         other_thread_result());
  db_unlock(); // the dead call's lock, by the same thread: start again

  long from_default = dipc_set_fault_hook((void (*)(void))main);
  long to_data = db_set_hook(0);
  long set = db_set_hook(1);
  printf("set from default: %ld, set to data: %ld, set: %ld\n",
         from_default == -DIPC_EPERM ? -1L : from_default, to_data, set);

  db_work(1);
  err = dipc_errno;
  long runs = db_hook_runs(0);
  printf("with hook: crash errno %d, hook runs %ld, other thread: %s, kcs "
         "%ld\n",
         err, runs, other_thread_result(), dipc_kcs_depth());

  int each = 1;
  for (int i = 0; i < 100; i++) {
    db_work(1);
    each &= dipc_errno == 14;
  }
  runs = db_hook_runs(0);
  printf("100 more crashes: errno 14 each: %s, hook runs %ld, other thread: "
         "%s\n",
         each ? "yes" : "no", runs, other_thread_result());

  db_hook_runs(1); // the hook crashes from now on
  db_work(1);
  err = dipc_errno;
  runs = db_hook_runs(0);
  printf("crashing hook: crash errno %d, hook runs %ld, kcs %ld\n", err, runs,
         dipc_kcs_depth());
  db_unlock();
  long r = db_work(0);
  err = dipc_errno;
  printf("next call: %ld errno %d\n", r, err);
  return 0;
}
