// A callee arms a recovery buffer (__dipc_setjmp_arm, what setjmp-style
// stubs call right before their proxy) and returns without a call that
// would take it. The armed word must die with the call: else the
// caller's next call that arms nothing (here through an entry's address,
// which resumes with 0 on a fault) took it, and a fault in that callee
// resumed the caller through zeta's buffer, which only has to lie on the
// caller's stack: main's words there chose where main went on (under
// `none` and `mpk`), and under `sfi` a buffer among main's locals (which
// live on the unsafe stack there) was refused and the process died. Now
// main gets 0 and DIPC_EFAULT and goes on, whatever zeta armed (nothing,
// a table of main's, main's frame), under every backend.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=none %t table 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t frame 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi table 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi frame 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi none 2>&1 | FileCheck %s
// RUN: %if pku %{ %dipc-bin-dir/dipc-run --backend=mpk %t table 2>&1 | FileCheck %s %}
// RUN: %if pku %{ %dipc-bin-dir/dipc-run --backend=mpk %t frame 2>&1 | FileCheck %s %}
// CHECK-NOT: hijacked
// CHECK: call through the entry's address returned 0, dipc_errno 14
// CHECK-NEXT: main goes on
#include <dipc.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void __dipc_setjmp_arm(void **buf);

int crash(volatile int *p) __dom("victim") __entry { return *p; }

/* zeta arms `buf` for a call it never makes. */
void arm(uintptr_t buf) __dom("zeta") __entry {
  __dipc_setjmp_arm((void **)buf);
}

static void hijacked(void) {
  static const char msg[] = "main resumed in hijacked()\n";
  (void)!write(STDOUT_FILENO, msg, sizeof msg - 1);
  _exit(0);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "none";
  /* A __builtin_setjmp buffer's words: frame pointer, resume address,
   * stack pointer. */
  volatile uintptr_t table[4] = {0, (uintptr_t)hijacked,
                                 (uintptr_t)__builtin_frame_address(0) - 4096};
  if (strcmp(mode, "table") == 0)
    arm((uintptr_t)table);
  else if (strcmp(mode, "frame") == 0)
    arm((uintptr_t)__builtin_frame_address(0));
  int (*volatile through_address)(volatile int *) = crash;
  int r = through_address(NULL);
  printf("call through the entry's address returned %d, dipc_errno %d\n", r,
         dipc_errno);
  printf("main goes on\n");
  return 0;
}
