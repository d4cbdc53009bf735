// The attacker is a callee domain without rights on the default domain:
// handed its caller's sigjmp_buf, it jumps out of its own call to resume
// the caller where the caller did not return to. Through the loader's
// siglongjmp the runtime refuses (the domain is not trusted with the
// default domain), and it crashes instead: the call returns 0 with
// DIPC_EFAULT under either backend. Through glibc's own siglongjmp under
// mpk the jump cannot even read the pointer guard (the TCB is the default
// domain's) and crashes the same way; with --backend=none (negative
// control) that jump succeeds and the caller resumes at sigsetjmp. Under
// sfi (-fdipc-sfi) the loader refuses main's dlopen of libc (no checks in
// it), so main finds glibc's siglongjmp with dlvsym; evil's indirect call
// to it is refused (not a function start a call by name reaches) and the
// call returns 0 with DIPC_EFAULT; the loader's siglongjmp refuses as
// under mpk. The sfi binary under `none` is the control.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t loader 2>&1 | FileCheck %s --check-prefix=STOPPED %}
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t libc 2>&1 | FileCheck %s --check-prefix=STOPPED %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi loader 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi libc 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t loader 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t libc 2>&1 | FileCheck %s --check-prefix=WORKS
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi loader 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi libc 2>&1 | FileCheck %s --check-prefix=WORKS
// STOPPED: call returned 0, dipc_errno 14, caller resumed by the callee: no
// WORKS: caller resumed by the callee: yes
#define _GNU_SOURCE
#include <dipc.h>
#include <dlfcn.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

typedef void (*jump_fn)(sigjmp_buf, int);

long evil(void *jb, jump_fn jump) __dom("evil") __entry {
  jump(jb, 1);
  return 7;
}

// glibc's own siglongjmp. Under sfi the loader refuses instrumented
// code's dlopen of libc, and dlsym would find the loader's: dlvsym finds
// glibc's.
static jump_fn libc_siglongjmp(void) {
  void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
  return libc ? (jump_fn)dlsym(libc, "siglongjmp")
              : (jump_fn)dlvsym(RTLD_DEFAULT, "siglongjmp", "GLIBC_2.2.5");
}

int main(int argc, char **argv) {
  static sigjmp_buf jb;
  jump_fn jump = argc > 1 && !strcmp(argv[1], "libc") ? libc_siglongjmp()
                                                      : (jump_fn)siglongjmp;
  if (sigsetjmp(jb, 1)) {
    printf("caller resumed by the callee: yes\n");
    return 0;
  }
  long r = evil(jb, jump);
  printf("call returned %ld, dipc_errno %d, caller resumed by the callee: no\n",
         r, dipc_errno);
  return 0;
}
