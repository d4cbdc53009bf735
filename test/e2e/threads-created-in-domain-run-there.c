// Threads a domain creates run their start routine as that domain
// (docs/runtime.md §2, "Threads created in a domain"), are joined, and
// compute correct results on every backend; one of each ends with
// pthread_exit. `calc` (a write grant on the
// default domain, which glibc's pthread_create needs under mpk) starts 4
// threads: each sums a block it allocates, sees itself running as calc, and
// is refused the default domain's owner handle to calc (a thread running as
// the default domain would get it). `heapy` (a read grant only) does the
// same with blocks from its own heap (docs/loader.md, "Heaps") under `sfi`
// and `none`; under `mpk` glibc's pthread_create faults in it (it writes
// default-domain memory) and heapy's caller gets DIPC_EFAULT.
// RUN: %dipc-clang -fdipc -O1 %s -o %t -lpthread
// RUN: %dipc-clang -fdipc -fdipc-sfi -O1 %s -o %t.sfi -lpthread
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefixes=CHECK,OWNHEAP
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefixes=CHECK,OWNHEAP
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefixes=CHECK,OWNHEAP
// CHECK: calc: sums ok, ran as calc, owner handle refused
// MPK-NEXT: heapy: returned 0, dipc_errno 14
// OWNHEAP-NEXT: heapy: sums ok, ran as heapy, owner handle refused, blocks in heapy's heap
// CHECK-NEXT: main: thread as default domain ok
#include <dipc.h>
#include <dipc/abi.h>
#include <dipc/rt.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NTHREADS 4
#define N 1000

enum { SUMS_OK = 1, DOM_OK = 2, REFUSED = 4, OWN_HEAP = 8, RAN = 16 };

// Each thread's part: sum of k * i for i < N, in a block of its own.
struct job {
  long k, sum, dom, named;
  uintptr_t block;
};

#define THREAD_BODY                                                          \
  struct job *j = p;                                                         \
  j->dom = dipc_current_domain();                                            \
  j->named = dipc_domain_named(NAME);                                        \
  long *a = malloc(N * sizeof *a);                                           \
  if (!a)                                                                    \
    return NULL;                                                             \
  for (long i = 0; i < N; i++)                                               \
    a[i] = j->k * i;                                                         \
  long s = 0;                                                                \
  for (long i = 0; i < N; i++)                                               \
    s += a[i];                                                               \
  j->sum = s;                                                                \
  j->block = (uintptr_t)a;                                                   \
  free(a);                                                                   \
  if (j->k == NTHREADS)                                                      \
    pthread_exit(j); /* the same as returning j */                           \
  return j;

#define RUN_BODY                                                             \
  struct job jobs[NTHREADS];                                                 \
  pthread_t t[NTHREADS];                                                     \
  long me = dipc_current_domain();                                           \
  for (int i = 0; i < NTHREADS; i++) {                                       \
    jobs[i] = (struct job){.k = i + 1};                                      \
    if (pthread_create(&t[i], NULL, WORK, &jobs[i]) != 0)                    \
      return -1;                                                             \
  }                                                                          \
  long r = RAN | SUMS_OK | DOM_OK | REFUSED | OWN_HEAP;                      \
  for (int i = 0; i < NTHREADS; i++) {                                       \
    void *got = NULL;                                                        \
    if (pthread_join(t[i], &got) != 0 || got != &jobs[i])                    \
      r &= ~SUMS_OK;                                                         \
    if (jobs[i].sum != (i + 1) * (long)N * (N - 1) / 2)                      \
      r &= ~SUMS_OK;                                                         \
    if (jobs[i].dom != me || me == 0)                                        \
      r &= ~DOM_OK;                                                          \
    if (jobs[i].named != -DIPC_EPERM)                                        \
      r &= ~REFUSED;                                                         \
    if (jobs[i].block - (DIPC_HEAP_ADDR + me * DIPC_HEAP_STRIDE) >=          \
        DIPC_HEAP_STRIDE)                                                    \
      r &= ~OWN_HEAP;                                                        \
  }                                                                          \
  return r;

static void *calc_work(void *p) __dom("calc");
static void *calc_work(void *p) {
#define NAME "calc"
  THREAD_BODY
#undef NAME
}
long calc_run(void) __dom("calc") __entry __perm("default", write) {
#define WORK calc_work
  RUN_BODY
#undef WORK
}

static void *heapy_work(void *p) __dom("heapy");
static void *heapy_work(void *p) {
#define NAME "heapy"
  THREAD_BODY
#undef NAME
}
long heapy_run(void) __dom("heapy") __entry __perm("default", read) {
#define WORK heapy_work
  RUN_BODY
#undef WORK
}

static void report(const char *who, long r, int err, int heap) {
  if (!(r & RAN)) {
    printf("%s: returned %ld, dipc_errno %d\n", who, r, err);
    return;
  }
  printf("%s: sums %s, %s %s, owner handle %s", who,
         r & SUMS_OK ? "ok" : "WRONG", r & DOM_OK ? "ran as" : "did NOT run as",
         who, r & REFUSED ? "refused" : "GIVEN");
  if (heap)
    printf(", blocks %s %s's heap", r & OWN_HEAP ? "in" : "NOT in", who);
  printf("\n");
}

static void *main_work(void *p) {
  (void)p;
  return (void *)dipc_current_domain();
}

int main(void) {
  long r = calc_run();
  report("calc", r, dipc_errno, 0);
  r = heapy_run();
  report("heapy", r, dipc_errno, 1);
  pthread_t t;
  void *dom = (void *)-1;
  pthread_create(&t, NULL, main_work, NULL);
  pthread_join(t, &dom);
  printf("main: thread as default domain %s\n", dom == NULL ? "ok" : "WRONG");
  return 0;
}
