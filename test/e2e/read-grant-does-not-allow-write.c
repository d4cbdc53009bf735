// __perm("ledger", read) lets the `audit` domain read `ledger`'s data, but
// its write faults under mpk and sfi (-fdipc-sfi) (turned into DIPC_EFAULT for the caller) and
// the value is unchanged. Negative control: `--backend=none` lets the
// write through.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=STOPPED %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=NONE
// STOPPED: audit read 500, dipc_errno 0
// STOPPED-NEXT: audit write returned 0, dipc_errno 14
// STOPPED-NEXT: ledger total 500
// NONE: audit read 500, dipc_errno 0
// NONE-NEXT: audit write returned 1, dipc_errno 0
// NONE-NEXT: ledger total 0
#include <dipc.h>
#include <stdio.h>

static long total __dom("ledger") = 500;
long *total_address(void) __dom("ledger") __entry { return &total; }
long ledger_total(void) __dom("ledger") __entry { return total; }

long audit_read(long *p) __dom("audit") __entry __perm("ledger", read) {
  return *(volatile long *)p;
}
long audit_zero(long *p) __dom("audit") __entry {
  *(volatile long *)p = 0;
  return 1;
}

int main(void) {
  long *p = total_address();
  long r = audit_read(p);
  printf("audit read %ld, dipc_errno %d\n", r, dipc_errno);
  r = audit_zero(p);
  printf("audit write returned %ld, dipc_errno %d\n", r, dipc_errno);
  printf("ledger total %ld\n", ledger_total());
  return 0;
}
