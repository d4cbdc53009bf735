// Callback proxies are made once per (domain, function, argument count)
// and never freed (rt/thread.c): one domain making them for function after
// function filled the process's table (an attack round's 60 functions x 5
// counts), and vault's qsort, which under `sfi` needs one for its
// comparator, then sorted nothing. A domain now gets at most 128; past
// that its own call that needs one faults (DIPC_EFAULT) instead of running
// libc without the callback, and other domains still get theirs.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 2>&1 | FileCheck %s
// CHECK: evil made 128 proxies, then refused
// CHECK: evil's qsort with one more comparator: dipc_errno 14
// CHECK: vault's qsort: sorted
#include "Inputs/vault.h"

static int by_int(const void *a, const void *b) __dom("vault") {
  return *(const int *)a - *(const int *)b;
}
long vault_sort(void) __dom("vault") __entry {
  int a[6] = {5, 3, 6, 1, 4, 2};
  qsort(a, 6, sizeof a[0], by_int);
  for (int i = 1; i < 6; i++)
    if (a[i - 1] > a[i])
      return 0;
  return 1;
}

#define F(n)                                                                   \
  __attribute__((noinline)) static long f##n(long x) { return x + n; }
#define F10(a)                                                                 \
  F(a##0) F(a##1) F(a##2) F(a##3) F(a##4) F(a##5) F(a##6) F(a##7) F(a##8) F(a##9)
F10(1) F10(2) F10(3) F10(4) F10(5) F10(6)
#define P(n) (void *)f##n,
#define P10(a)                                                                 \
  P(a##0) P(a##1) P(a##2) P(a##3) P(a##4) P(a##5) P(a##6) P(a##7) P(a##8) P(a##9)
static void *fns[] = {P10(1) P10(2) P10(3) P10(4) P10(5) P10(6)};

static int one_more(const void *a, const void *b) {
  return *(const int *)a - *(const int *)b;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)secret, (void)key, (void)loot;
  if (strcmp(mode, "qsort") == 0) {
    int a[3] = {3, 1, 2};
    qsort(a, 3, sizeof a[0], one_more);
    return a[0];
  }
  long made = 0;
  for (unsigned i = 0; i < sizeof fns / sizeof fns[0]; i++)
    for (int args = 0; args <= 4; args++)
      made += dipc_domain_callback(fns[i], args) != NULL;
  return made;
}

int main(void) {
  char loot[32];
  long made = attack("exhaust", NULL, NULL, 0, loot);
  printf("evil made %ld proxies, then refused\n", made);
  attack("qsort", NULL, NULL, 0, loot);
  printf("evil's qsort with one more comparator: dipc_errno %d\n", dipc_errno);
  printf("vault's qsort: %s\n", vault_sort() ? "sorted" : "not sorted");
  return 0;
}
