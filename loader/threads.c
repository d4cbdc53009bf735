/* threads.c - wraps pthread_create so every thread is set up (alternate
 * signal stack, runtime state, hence its unsafe stack) before it runs
 * program code, in a slot of the runtime's set aside before the thread is
 * created (pthread_create fails with EAGAIN when there is none). */
#define _GNU_SOURCE
#include "interpose.h"
#include "sfi_intercept.h"
#include "threads.h"

#include <dipc/rt.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static thread_setup_fn setup_thread;

void threads_set_setup(thread_setup_fn setup) { setup_thread = setup; }

struct start {
  void *(*routine)(void *);
  void *arg;
};

static void *start_thread(void *p) {
  struct start start = *(struct start *)p;
  /* Set up before anything else: the thread's first free or malloc may
   * make it an arena, whose trimming munmap traps to the runtime under
   * mpk, which would give the thread a state outside its reserved slot. */
  int failed = setup_thread && setup_thread() != 0;
  free(p);
  if (failed) {
    fputs("dipc-loader: cannot set up a new thread; stopping it\n", stderr);
    return NULL;
  }
  return start.routine(start.arg);
}

typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *,
                                 void *(*)(void *), void *);

__attribute__((visibility("default"))) int
pthread_create(pthread_t *thread, const pthread_attr_t *attr,
               void *(*routine)(void *), void *arg) {
  pthread_create_fn real = INTERPOSE_NEXT(pthread_create_fn, "pthread_create");
  /* The new thread calls routine from here, unchecked: under `sfi` it
   * must be a function instrumented code could call itself. */
  if (SFI_CHECKED())
    sfi_check_callee((const void *)routine);
  /* A slot for the thread's runtime state first: none left is EAGAIN, as
   * for any other resource a thread needs, never a stopped process. A
   * joined thread's slot frees once the kernel has reaped it, which can
   * trail pthread_join by a moment: a few short retries cover that. */
  int slot = dipc_thread_reserve();
  for (int try = 0; slot != 0 && try < 20; try++) {
    nanosleep(&(struct timespec){0, 1000000}, NULL);
    slot = dipc_thread_reserve();
  }
  if (slot != 0)
    return EAGAIN;
  struct start *start = malloc(sizeof *start);
  if (!start) {
    dipc_thread_unreserve();
    return EAGAIN;
  }
  *start = (struct start){routine, arg};
  int err = real(thread, attr, start_thread, start);
  if (err) {
    free(start);
    dipc_thread_unreserve();
  }
  return err;
}
