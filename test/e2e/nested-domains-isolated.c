// Nested domains: main -> outer -> middle -> inner, each call crossing a
// domain. outer and middle call other domains without any permission on the
// default domain: their import slots are in their own data pages, the stubs
// write dipc_errno through gs (the thread's public page, shared key) and arm
// setjmp recovery through the runtime vector (a read-only shared-key page at a
// fixed address), and reading dipc_errno goes through the vector too. Only main
// (default domain) prints. The innermost domain reading outer's secret
// faults under mpk and sfi (-fdipc-sfi) and only the nearest caller (middle) sees DIPC_EFAULT; it
// answers normally, so outer and main see 0. Negative control:
// `--backend=none` lets inner read outer's secret.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=STOPPED %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-clang -fdipc -O0 %s -o %t.o0
// RUN: %dipc-clang -fdipc -fdipc-sfi -O0 %s -o %t.o0.sfi
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t.o0 2>&1 | FileCheck %s --check-prefix=STOPPED %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.o0.sfi 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.o0 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.o0.sfi 2>&1 | FileCheck %s --check-prefix=NONE
// -fdipc-recovery=try: outer and middle may not write the default domain,
// which the unwinder needs, so their stubs use setjmp-style recovery.
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O0 %s -o %t.try0
// RUN: %dipc-clang -fdipc -fdipc-sfi -fdipc-recovery=try -O0 %s -o %t.try0.sfi
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t.try0 2>&1 | FileCheck %s --check-prefix=STOPPED %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.try0.sfi 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 %s -o %t.try2
// RUN: %dipc-clang -fdipc -fdipc-sfi -fdipc-recovery=try -O2 %s -o %t.try2.sfi
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t.try2 2>&1 | FileCheck %s --check-prefix=STOPPED %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.try2.sfi 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.try2 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.try2.sfi 2>&1 | FileCheck %s --check-prefix=NONE
// No grant to the default domain anywhere:
// RUN: %dipc-bin-dir/dipc-readelf %t | FileCheck %s --check-prefix=RECORDS
// RECORDS-NOT: grant
// RECORDS-DAG: import middle from=outer to=middle slot=__dipc_slot.outer.00.middle
// RECORDS-DAG: import inner_add from=middle to=inner slot=__dipc_slot.middle.00.inner_add
// RECORDS-NOT: grant
// STOPPED: round 0: middle: add 42 errno 0, read 0 errno 14; outer: errno 0; main: errno 0
// STOPPED-NEXT: round 1: middle: add 42 errno 0, read 0 errno 14; outer: errno 0; main: errno 0
// NONE: round 0: middle: add 42 errno 0, read 99 errno 0; outer: errno 0; main: errno 0
// NONE-NEXT: round 1: middle: add 42 errno 0, read 99 errno 0; outer: errno 0; main: errno 0
#include <dipc.h>
#include <stdio.h>

static long outer_secret __dom("outer") = 99;

long inner_add(long a) __dom("inner") __entry { return a + 1; }
long inner_read(const long *p) __dom("inner") __entry {
  return *(const volatile long *)p;
}

// Result: add * 10^6 + errno after add * 10^4 + errno after read * 100 +
// the value read (< 100).
long middle(const long *p) __dom("middle") __entry {
  long add = inner_add(41);
  long add_errno = dipc_errno;
  long read = inner_read(p);
  long read_errno = dipc_errno;
  return add * 1000000 + add_errno * 10000 + read_errno * 100 + read;
}

// Adds outer's own dipc_errno after the call, times 10^9.
long outer(void) __dom("outer") __entry {
  long r = middle(&outer_secret);
  return r + dipc_errno * 1000000000L;
}

int main(void) {
  for (int round = 0; round < 2; ++round) {
    long r = outer();
    printf("round %d: middle: add %ld errno %ld, read %ld errno %ld; "
           "outer: errno %ld; main: errno %d\n",
           round, r / 1000000 % 1000, r / 10000 % 100, r % 100, r / 100 % 100,
           r / 1000000000L, dipc_errno);
  }
  return 0;
}
