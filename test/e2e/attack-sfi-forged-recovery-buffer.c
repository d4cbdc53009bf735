// A setjmp-style caller stub arms a buffer in its own frame
// (__dipc_setjmp_arm) and, when its callee faults, the runtime used to
// resume it at the buffer's label with the buffer's frame and stack
// pointers. Under `sfi` that frame is the caller domain's to write: `evil`
// arms a buffer of its own making (label: a function no jump may reach)
// and calls an entry that faults through the entry's address (an anycall
// proxy, which takes the armed buffer; a stub would arm its own; taking an
// entry's address did not compile under -fdipc-sfi before either). Now, under
// `sfi`, a setjmp-style caller resumes right after its call, with r11 =
// DIPC_RESUME_FAULT for its stub (dipc/abi.h) and 0 for its results: the
// buffer's words are never used. The stubs' own recovery still works
// (e2e/callee-crash-setjmp-*.c). And the forging itself is refused first
// now: no checked write lands on a callee stack (dipc/sfi.h, data
// frames), so evil's first word of the buffer faults and its call returns
// DIPC_EFAULT. Control: `none` resumes at the label.
// RUN: %dipc-clang -fdipc -fdipc-sfi -fdipc-recovery=setjmp -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=HIJACKED
// SFI-NOT: hijacked
// SFI-NOT: the faulting call
// SFI: attack returned 0, dipc_errno 14
// SFI: nothing stolen
// HIJACKED: recovery hijacked
#include "Inputs/vault.h"

#include <unistd.h>

void __dipc_setjmp_arm(void **buf);

int crash(volatile int *p) __dom("victim") __entry { return *p; }

static void hijacked(void) {
  static const char msg[] = "recovery hijacked\n";
  (void)!write(STDOUT_FILENO, msg, sizeof msg - 1);
  _exit(0);
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)aux, (void)secret, (void)key, (void)loot;
  int (*volatile through_address)(volatile int *) = crash;
  /* On the stack (the runtime wants the buffer there), well below this
   * frame, where the call's own pushes do not reach. */
  char *frame = __builtin_frame_address(0);
  void **buf = (void **)(frame - 1024);
  buf[0] = 0;
  buf[1] = (void *)hijacked;
  buf[2] = frame - 2056; /* as at a function's entry: rsp = 8 mod 16 */
  __dipc_setjmp_arm(buf);
  int r = through_address(NULL);
  printf("the faulting call returned %d, dipc_errno %d\n", r, dipc_errno);
  return 1;
}

int main(void) { return run_attack("forged recovery buffer", NULL); }
