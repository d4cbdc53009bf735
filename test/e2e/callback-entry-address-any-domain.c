// An entry's address works as a callback from any domain (issue #12 defect
// 2): the address every domain takes of an entry is its anycall stub, which
// crosses into the entry's domain from whichever domain calls it. Calls
// through the same pointer from the default domain, from a third domain
// (lib), from lib back into the domain that passed it (app), and from the
// entry's own domain; every argument register arrives (six integers, two
// doubles: a lost or swapped one changes the digits), dipc_errno is 0 and
// the KCS is empty after each. Before anycall stubs, the pointer was a
// caller stub of the taking domain, whose first call from lib stopped
// (SIGILL), and app's own entry's address was the raw function (lib would
// have run app's code in lib's domain). The call from app's own domain
// starts its callee's stack right below the caller's return address: the
// proxy used to overwrite the caller's rdx there (c came out as d).
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 %s -o %t.sj0
// RUN: %dipc-bin-dir/dipc-run %t.sj0 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sj0 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O1 %s -o %t.sj1
// RUN: %dipc-bin-dir/dipc-run %t.sj1 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O2 %s -o %t.sj2
// RUN: %dipc-bin-dir/dipc-run %t.sj2 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sj2 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O3 %s -o %t.sj3
// RUN: %dipc-bin-dir/dipc-run %t.sj3 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -Os %s -o %t.sjs
// RUN: %dipc-bin-dir/dipc-run %t.sjs 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O0 %s -o %t.try0
// RUN: %dipc-bin-dir/dipc-run %t.try0 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 %s -o %t.try2
// RUN: %dipc-bin-dir/dipc-run %t.try2 2>&1 | FileCheck %s
// The stub after an endbr64 (the runtime accepts both shapes), and under
// full LTO (the stubs of several modules merge):
// RUN: %dipc-clang -fdipc -O2 -fcf-protection=full %s -o %t.cet
// RUN: %dipc-bin-dir/dipc-run %t.cet 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -O2 -flto %s -o %t.lto
// RUN: %dipc-bin-dir/dipc-run %t.lto 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-readelf %t.sj2 | FileCheck %s --check-prefix=RECORDS
// Entries' addresses under -fdipc-sfi (anycall stubs: the call check
// allows them by the runtime's anycall table).
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s
// RECORDS: anycall mix domain=app stub=__dipc_anycall.mix int_args=6 vec_args=2
// RECORDS-NOT: anycall
// CHECK: main -> lib -> pointer: 87654321, errno 0, kcs 0
// CHECK-NEXT: main through the pointer: 87654321, errno 0, kcs 0
// CHECK-NEXT: app -> lib -> pointer back into app: 87654321, errno 0, kcs 0
// CHECK-NEXT: app through its own entry's pointer: 87654321, errno 0, kcs 0
// CHECK-NEXT: one address in every domain: yes
#include <dipc.h>
#include <dipc/rt.h>
#include <stdio.h>

typedef long mix_fn(long, long, long, long, long, long, double, double);

long mix(long a, long b, long c, long d, long e, long f, double x,
         double y) __dom("app") __entry;
long mix(long a, long b, long c, long d, long e, long f, double x, double y) {
  return a + 10 * b + 100 * c + 1000 * d + 10000 * e + 100000 * f +
         (long)x * 1000000 + (long)y * 10000000;
}

// 7.0 and 8.0 without floating-point constants: the compiler's constant
// pools are default-domain data, which named domains cannot read under mpk.
#define CALL_MIX(fn)                                                           \
  ({                                                                           \
    volatile long seven = 7, eight = 8;                                        \
    (fn)(1, 2, 3, 4, 5, 6, (double)seven, (double)eight);                      \
  })

// A third domain calls whatever pointer it is given.
long lib_call(mix_fn *fn) __dom("lib") __entry {
  return CALL_MIX(fn);
}

// app hands its own entry to lib, which calls back into app.
long app_via_lib(void) __dom("app") __entry { return lib_call(mix); }

// app calls its own entry through its address.
long app_self(void) __dom("app") __entry {
  mix_fn *volatile fn = mix;
  return CALL_MIX(fn);
}

void *app_address(void) __dom("app") __entry { return (void *)mix; }

static void report(const char *what, long got) {
  int err = dipc_errno;
  printf("%s: %ld, errno %d, kcs %ld\n", what, got, err, dipc_kcs_depth());
}

int main(void) {
  mix_fn *volatile fn = mix;
  report("main -> lib -> pointer", lib_call(mix));
  report("main through the pointer", CALL_MIX(fn));
  report("app -> lib -> pointer back into app", app_via_lib());
  report("app through its own entry's pointer", app_self());
  printf("one address in every domain: %s\n",
         app_address() == (void *)mix ? "yes" : "no");
  return 0;
}
