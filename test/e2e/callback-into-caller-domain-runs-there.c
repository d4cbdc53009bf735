// A callback into the caller's domain runs in the caller's domain: app
// passes its entry to lib, lib calls it back. Under mpk the callback reads
// app's private data but faults on lib's (a pointer lib hands it), so lib's
// call of the pointer yields 0 with dipc_errno == DIPC_EFAULT, and app's
// and main's calls then return normally; the same holds under sfi
// (-fdipc-sfi), with the same output. Negative control: with
// --backend=none the callback reads lib's data too (mpk and sfi builds). Before anycall stubs,
// app's own entry's address was the raw function, which ran in lib's domain
// when lib called it: it read lib's data and faulted on app's.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=MPK %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-clang -fdipc -O0 -fdipc-recovery=try %s -o %t.try0
// RUN: %dipc-clang -fdipc -fdipc-sfi -O0 -fdipc-recovery=try %s -o %t.sfi.try0
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t.try0 2>&1 | FileCheck %s --check-prefix=MPK %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi.try0 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi.try0 2>&1 | FileCheck %s --check-prefix=NONE
// MPK: app's data: 1100 (value * 100 + lib's errno), main's errno 0
// MPK-NEXT: lib's data: 14 (value * 100 + lib's errno), main's errno 0
// NONE: app's data: 1100 (value * 100 + lib's errno), main's errno 0
// NONE-NEXT: lib's data: 2200 (value * 100 + lib's errno), main's errno 0
#include <dipc.h>
#include <stdio.h>

static long app_private __dom("app") = 11;
static long lib_private __dom("lib") = 22;

// NULL: app's own data; otherwise what p points to.
long app_peek(const long *p) __dom("app") __entry {
  return *(const volatile long *)(p ? p : &app_private);
}

long lib_run(long (*cb)(const long *), long which) __dom("lib") __entry {
  long got = cb(which ? &lib_private : NULL);
  return got * 100 + dipc_errno;
}

long app_start(long which) __dom("app") __entry {
  return lib_run(app_peek, which);
}

int main(void) {
  long r = app_start(0);
  printf("app's data: %ld (value * 100 + lib's errno), main's errno %d\n", r,
         dipc_errno);
  r = app_start(1);
  printf("lib's data: %ld (value * 100 + lib's errno), main's errno %d\n", r,
         dipc_errno);
  return 0;
}
