// qsort (libc, shared code) with a comparator that is an entry of another
// domain: every comparison crosses into `cmp` through the entry's anycall
// stub, from a named domain (sorter, which sorts its own array with the
// pointer main hands it) and from the default domain. A comparator crashing on some elements makes those
// comparisons return 0 (dipc_errno DIPC_EFAULT at the call site, the
// comparison inside qsort): qsort still returns, with a permutation of the
// elements, and the KCS is empty. Before anycall stubs, the comparator's
// address was a caller stub of the default domain (which took it), whose
// first call from sorter's qsort stopped the process (SIGILL).
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 %s -o %t.sj0
// RUN: %dipc-bin-dir/dipc-run %t.sj0 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O2 %s -o %t.sj2
// RUN: %dipc-bin-dir/dipc-run %t.sj2 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sj2 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O0 %s -o %t.try0
// RUN: %dipc-bin-dir/dipc-run %t.try0 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 %s -o %t.try2
// RUN: %dipc-bin-dir/dipc-run %t.try2 2>&1 | FileCheck %s
// Entries' addresses under -fdipc-sfi (anycall stubs: the call check
// allows them by the runtime's anycall table).
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s
// CHECK: sorter domain: 12 15 23 27 31 44 (sorter errno 0), errno 0 kcs 0
// CHECK-NEXT: default domain: 1 2 3 5 7 9 errno 0 kcs 0
// CHECK-NEXT: crashing comparator: a permutation: yes, kcs 0
// CHECK-NEXT: crash through the pointer: 0 errno 14
// CHECK-NEXT: next call: -1 errno 0
#include <dipc.h>
#include <dipc/rt.h>
#include <stdio.h>
#include <stdlib.h>

// Crashes when either element is 13. It reads the elements it is given:
// sorter's (its array, or qsort's copies on sorter's stack) need a grant;
// main's array escapes to the unsafe stack, which every domain reads.
int by_value(const void *a, const void *b) __dom("cmp") __entry
    __perm("sorter", read);
int by_value(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  if (x == 13 || y == 13)
    *(volatile int *)0 = 1;
  return (x > y) - (x < y);
}

static int sorter_data[6] __dom("sorter") = {44, 12, 31, 15, 27, 23};

// Sorts its own array and returns it packed, two digits per element.
typedef int cmp_fn(const void *, const void *);
// libc's qsort reads libc's data (the default domain's) in sorter's domain.
long sorter_sort(cmp_fn *cmp) __dom("sorter") __entry __perm("default", read);
long sorter_sort(cmp_fn *cmp) {
  qsort(sorter_data, 6, sizeof sorter_data[0], cmp);
  long packed = 0;
  for (int i = 0; i < 6; i++)
    packed = packed * 100 + sorter_data[i];
  return packed * 100 + dipc_errno;
}

int main(void) {
  long packed = sorter_sort(by_value);
  int err = dipc_errno;
  printf("sorter domain:");
  for (long d = 1000000000000L; d >= 100; d /= 100)
    printf(" %ld", packed / d % 100);
  printf(" (sorter errno %ld), errno %d kcs %ld\n", packed % 100, err,
         dipc_kcs_depth());

  int v[] = {5, 3, 9, 1, 7, 2};
  qsort(v, 6, sizeof v[0], by_value);
  err = dipc_errno;
  printf("default domain:");
  for (int i = 0; i < 6; i++)
    printf(" %d", v[i]);
  printf(" errno %d kcs %ld\n", err, dipc_kcs_depth());

  int w[] = {8, 13, 4, 13, 6, 1, 13};
  qsort(w, 7, sizeof w[0], by_value);
  int sum = 0, thirteens = 0;
  for (int i = 0; i < 7; i++) {
    sum += w[i];
    thirteens += w[i] == 13;
  }
  printf("crashing comparator: a permutation: %s, kcs %ld\n",
         sum == 58 && thirteens == 3 ? "yes" : "no", dipc_kcs_depth());

  int (*volatile cmp)(const void *, const void *) = by_value;
  int one = 1, two = 2, thirteen = 13;
  int r = cmp(&thirteen, &one);
  err = dipc_errno;
  printf("crash through the pointer: %d errno %d\n", r, err);
  r = cmp(&one, &two);
  err = dipc_errno;
  printf("next call: %d errno %d\n", r, err);
  return 0;
}
