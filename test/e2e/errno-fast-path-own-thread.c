// Reading dipc_errno takes the runtime vector's fast path (RDGSBASE and
// RDFSBASE, no PKRU change) when the kernel enables FSGSBASE, the gate
// otherwise; either way every thread reads its own dipc_errno:
//  - main sets its dipc_errno to DIPC_EFAULT through a crashing callee;
//  - a thread started by libc's own pthread_create (not the loader's
//    wrapper, so it has no runtime state and inherits main's gs) reads 0
//    before any cross-domain call, not main's 14; then it sets its own to
//    DIPC_EFAULT, which main does not see after clearing its own with a
//    successful call;
//  - a thread started through the loader crashes a callee: it reads 14,
//    main still reads 0;
//  - domain "reader" has no permission on the default domain and reads
//    dipc_errno after calling a crashing entry of "worker" (under mpk its
//    reads of default-domain memory would fault).
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 %s -o %t -lpthread -ldl
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -O0 %s -o %t.o0 -lpthread -ldl
// RUN: %dipc-bin-dir/dipc-run %t.o0 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 %s -o %t.try -lpthread -ldl
// RUN: %dipc-bin-dir/dipc-run %t.try 2>&1 | FileCheck %s
// CHECK: vector: fast path iff FSGSBASE
// CHECK-NEXT: main: crash -> errno 14
// CHECK-NEXT: raw thread: first read 0, after own write 14, after call 0
// CHECK-NEXT: main: still 14, after call 0
// CHECK-NEXT: raw thread 2: set 14
// CHECK-NEXT: main: after raw thread 2: 0
// CHECK-NEXT: loader thread: crash -> errno 14
// CHECK-NEXT: main: after loader thread: 0
// CHECK-NEXT: reader domain: ok -> 0, crash -> 14, ok -> 0
// CHECK-NEXT: main: after reader: 0
#include <dipc.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/auxv.h>

int *__dipc_errno_location_gate(void); /* libdipc: the gate variant */

long work(long how) __dom("worker") __entry {
  if (how == 1)
    return *(volatile long *)0; /* SIGSEGV */
  return 7;
}

// No __perm("default", ...): this domain cannot read default-domain memory.
long reader(void) __dom("reader") __entry {
  long r = work(0);
  long e0 = dipc_errno;
  work(1);
  long e1 = dipc_errno;
  r += work(0);
  long e2 = dipc_errno;
  return r * 1000000 + e0 * 10000 + e1 * 100 + e2; /* r: 14 */
}

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *,
                         void *(*)(void *), void *);

// libc's pthread_create, bypassing the loader's wrapper: the new thread
// starts without runtime state, with its parent's gs base.
static create_fn libc_create(void) {
  void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  return libc ? (create_fn)dlsym(libc, "pthread_create") : 0;
}

static void *raw_thread(void *arg) {
  (void)arg;
  int first = dipc_errno;
  dipc_errno = DIPC_EFAULT;
  int after_write = dipc_errno;
  work(0);
  printf("raw thread: first read %d, after own write %d, after call %d\n",
         first, after_write, dipc_errno);
  return NULL;
}

static void *raw_thread2(void *arg) {
  (void)arg;
  dipc_errno = DIPC_EFAULT;
  printf("raw thread 2: set %d\n", dipc_errno);
  return NULL;
}

static void *loader_thread(void *arg) {
  (void)arg;
  long v = work(1);
  printf("loader thread: crash -> errno %d\n", v == 0 ? dipc_errno : -1);
  return NULL;
}

int main(void) {
  void *entry = *(void **)(uintptr_t)DIPC_VECTOR_ERRNO_LOCATION;
  int fast = (getauxval(AT_HWCAP2) & 2) != 0;
  printf("vector: %s\n", (entry != (void *)__dipc_errno_location_gate) == fast
                             ? "fast path iff FSGSBASE"
                             : "WRONG entry");
  create_fn create = libc_create();
  if (!create)
    return 1;
  pthread_t t;

  long v = work(1);
  printf("main: crash -> errno %d\n", v == 0 ? dipc_errno : -1);
  fflush(stdout);
  create(&t, NULL, raw_thread, NULL);
  pthread_join(t, NULL);
  int still = dipc_errno;
  work(0);
  printf("main: still %d, after call %d\n", still, dipc_errno);
  fflush(stdout);

  create(&t, NULL, raw_thread2, NULL);
  pthread_join(t, NULL);
  printf("main: after raw thread 2: %d\n", dipc_errno);
  fflush(stdout);

  pthread_create(&t, NULL, loader_thread, NULL);
  pthread_join(t, NULL);
  printf("main: after loader thread: %d\n", dipc_errno);

  long r = reader();
  printf("reader domain: ok -> %ld, crash -> %ld, ok -> %ld\n",
         r / 10000 % 100, r / 100 % 100, r % 100);
  printf("main: after reader: %d\n", dipc_errno);
  return r / 1000000 == 14 ? 0 : 1;
}
