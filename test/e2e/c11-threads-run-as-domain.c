// C11 threads (<threads.h>) are set up like pthreads: glibc's thrd_create
// and thrd_exit call its pthread functions inside libc, past the loader's
// wrappers, so a C11 thread had no runtime state of its own (under `sfi`
// it shared its creator's and crashed; elsewhere it ran a domain's routine
// as the default domain). The loader now takes thrd_create, thrd_exit and
// tss_create (loader/threads.c, loader/sfi_callbacks.c). Domain d starts a
// thread that reports the domain it runs as, makes a cross-domain call,
// and ends with thrd_exit; its exit value and, with `key`, a C11 key's
// destructor (run as d under `sfi`; under `mpk` a domain's destructor
// still runs as the default domain, docs/runtime.md) are reported as they
// came.
// RUN: %dipc-clang -fdipc -O1 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s
// RUN: %if pku %{ %dipc-bin-dir/dipc-run --backend=mpk %t 2>&1 | FileCheck %s %}
// RUN: %dipc-clang -fdipc -fdipc-sfi -O1 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi key 2>&1 | FileCheck %s --check-prefixes=CHECK,SFI
// CHECK: thrd_create: success; the thread ran as d, its call returned 5, thrd_exit gave 42
// SFI: key destructor ran as d
#include <dipc.h>
#include <dipc/rt.h>
#include <stdio.h>
#include <threads.h>

long add(long a, long b) __dom("calc") __entry { return a + b; }

static long d_id __dom("d"), ran_as __dom("d"), sum __dom("d"),
    dtor_ran_as __dom("d");
static tss_t key __dom("d");

static void dtor(void *p) __dom("d") {
  (void)p;
  dtor_ran_as = dipc_current_domain();
}

static int body(void *arg) __dom("d") __perm("calc", call) {
  (void)arg;
  ran_as = dipc_current_domain();
  sum = add(2, 3);
  tss_set(key, &sum);
  thrd_exit(42);
}

long d_spawn(int with_dtor) __dom("d") __entry __perm("default", write) {
  d_id = dipc_current_domain();
  if (tss_create(&key, with_dtor ? dtor : NULL) != thrd_success)
    printf("tss_create failed\n");
  thrd_t t;
  int r = thrd_create(&t, body, NULL), res = -1;
  if (r == thrd_success)
    thrd_join(t, &res);
  printf("thrd_create: %s; the thread ran as %s, its call returned %ld, "
         "thrd_exit gave %d\n",
         r == thrd_success ? "success" : "failed",
         ran_as == d_id ? "d" : "another domain", sum, res);
  if (dtor_ran_as)
    printf("key destructor ran as %s\n", dtor_ran_as == d_id ? "d" : "another domain");
  return 0;
}

int main(int argc, char **argv) {
  (void)argv;
  d_spawn(argc > 1);
  return 0;
}
