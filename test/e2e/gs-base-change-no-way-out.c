// A thread's gs base is no way out of its domain. Gates find the thread's
// runtime state through gs and make a new state, in the default domain,
// for a thread whose gs leads to none. `mallory` (no grant on the default
// domain) points gs (or fs, which gates compare with the state's owner) at
// a word of its own with arch_prctl and enters a gate. Under mpk the
// seccomp filter refuses that arch_prctl (docs/runtime.md §6): gs stays,
// mallory's write to the default domain faults and main gets DIPC_EFAULT,
// the victim intact. The runtime's own check is the next line of defence,
// seen under `none` (no filter): it sees that the thread already has a
// state and stops the process as a security violation. Before the check
// the gate gave the thread a fresh state in the default domain and
// mallory, now with the default domain's rights, overwrote the victim
// under mpk and exited with status 77. Under sfi (-fdipc-sfi) the loader
// refuses mallory's syscall(2) (EPERM, the arch_prctl never runs), so gs
// stays, mallory's write faults and main gets DIPC_EFAULT, the victim
// intact; the same binary under `none` reaches the runtime's check.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t gs 2>&1 | FileCheck %s --check-prefix=MPK %}
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t fs 2>&1 | FileCheck %s --check-prefix=MPK %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi gs 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi fs 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=none %t gs 2>&1 | FileCheck %s
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=none %t.sfi gs 2>&1 | FileCheck %s
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=none %t.sfi fs 2>&1 | FileCheck %s
// CHECK: mallory runs in domain {{[1-9]}}
// CHECK-NEXT: dipc: security violation: a thread with runtime state asked for another (its gs or fs base was changed)
// CHECK-NOT: victim
// MPK: mallory runs in domain {{[1-9]}}
// MPK-NOT: security violation
// MPK: victim 42, dipc_errno 14
// SFI: mallory runs in domain {{[1-9]}}
// SFI-NEXT: dipc: sfi: syscall(2) refused to the running domain (it would undo the isolation)
// SFI-NOT: security violation
// SFI: victim 42, dipc_errno 14
#include <asm/prctl.h>
#include <dipc.h>
#include <dipc/rt.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long victim = 42;                        /* default domain */
static long fake_tcb[4] __dom("mallory") = {0}; /* gs:0 / fs:0 = 0 */

typedef long syscall_fn(long, ...);
typedef long current_fn(void);

long mallory(syscall_fn *sys, current_fn *current, long which)
    __dom("mallory") __entry {
  long before = current();
  sys(SYS_arch_prctl, which, (long)fake_tcb);
  current(); /* a gate: the thread's state, or a new one? */
  *(volatile long *)&victim = 0xbad;
  /* Nothing of mallory's own is reachable with the default domain's
   * rights: report through the exit status. */
  sys(SYS_exit_group, *(volatile long *)&victim == 0xbad ? 77 : 1);
  return before;
}

long mallory_where(current_fn *current) __dom("mallory") __entry {
  return current();
}

int main(int argc, char **argv) {
  long which = argc > 1 && !strcmp(argv[1], "fs") ? ARCH_SET_FS : ARCH_SET_GS;
  printf("mallory runs in domain %ld\n", mallory_where(dipc_current_domain));
  fflush(stdout);
  mallory((syscall_fn *)syscall, dipc_current_domain, which);
  printf("victim %ld, dipc_errno %d\n", victim, dipc_errno);
  return 0;
}
