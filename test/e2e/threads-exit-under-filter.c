// Threads come and go as without dIPC under the mpk kernel filter, whose
// traps (munmap, mremap, MAP_FIXED, some madvise) glibc's thread and
// allocator code reaches, also where a trap cannot be taken (a thread's
// exit runs with every signal blocked): 64 detached and 64 joined threads
// each make their arena (the first malloc of a thread maps and trims one),
// free a large block (munmap) and exit; the stacks of exited detached
// threads overflow glibc's stack cache (munmap at exit). Threads started
// by libc's own pthread_create, bypassing the loader, too. Every thread
// must finish, and the process exit 0.
// RUN: %dipc-clang -fdipc -O2 %s -o %t -lpthread -ldl
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s
// CHECK: detached finished 64 of 64
// CHECK-NEXT: joined finished 64 of 64
// CHECK-NEXT: libc threads finished 8 of 8
// CHECK-NEXT: calls 136 of 136
#define _GNU_SOURCE
#include <dipc.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

long twice(long x) __dom("calc") __entry { return 2 * x; }

static int finished, calls;

static void *worker(void *arg) {
  (void)arg;
  char *big = malloc(1 << 20); /* above the mmap threshold */
  if (big) {
    memset(big, 1, 1 << 20);
    free(big);
  }
  if (twice(21) == 42)
    __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&finished, 1, __ATOMIC_RELEASE);
  return NULL;
}

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *,
                         void *(*)(void *), void *);

static void wait_for(int n) {
  for (int i = 0; i < 20000 && __atomic_load_n(&finished, __ATOMIC_ACQUIRE) < n;
       ++i)
    usleep(1000);
}

int main(void) {
  pthread_attr_t detached;
  pthread_attr_init(&detached);
  pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED);
  for (int i = 0; i < 64; ++i) {
    pthread_t t;
    if (pthread_create(&t, &detached, worker, NULL) != 0)
      return 1;
  }
  wait_for(64);
  printf("detached finished %d of 64\n", finished);
  usleep(100000); /* their exits, stack cache included */
  finished = 0;
  for (int i = 0; i < 64; ++i) {
    pthread_t t;
    if (pthread_create(&t, NULL, worker, NULL) != 0 || pthread_join(t, NULL))
      return 1;
  }
  printf("joined finished %d of 64\n", finished);
  finished = 0;
  void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  create_fn create = libc ? (create_fn)dlsym(libc, "pthread_create") : NULL;
  for (int i = 0; create && i < 8; ++i) {
    pthread_t t;
    if (create(&t, NULL, worker, NULL) != 0 || pthread_join(t, NULL))
      return 1;
  }
  printf("libc threads finished %d of 8\n", finished);
  printf("calls %d of 136\n", calls);
  return 0;
}
