// A SIGSYS of the filter's makes the runtime resume the thread in a
// trampoline, and one taken in runtime code (PKRU 0) has the call made
// with the runtime's cookie (rt/exec.c). Domain `evil` forges one: a
// SIGSYS with the filter's si_code, si_errno and a munmap of the vault's
// page, sent to itself with rt_tgsigqueueinfo (which accepts any si_code
// within a process), as another thread could send it to a thread inside
// a gate. Under mpk the filter refuses signals with a siginfo of the
// sender's making: EPERM, nothing sent. Control: `none` (no filter),
// where it is sent and, being no trap, kills the process.
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=NONE
// MPK: forged SIGSYS: -1 (Operation not permitted)
// MPK: nothing stolen
// NONE: attacking (forged sigsys)
// NONE-NOT: forged SIGSYS
#define _GNU_SOURCE
#include "Inputs/vault.h"

#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)aux, (void)key, (void)loot;
  siginfo_t info;
  memset(&info, 0, sizeof info);
  info.si_signo = SIGSYS;
  info.si_code = 1;        /* SYS_SECCOMP */
  info.si_errno = 0xd1c;   /* the filter's trap data */
  info.si_call_addr = NULL;
  info.si_syscall = SYS_munmap;
  long r = syscall(SYS_rt_tgsigqueueinfo, getpid(), gettid(), SIGSYS, &info);
  printf("forged SIGSYS: %ld (%s)\n", r, strerror(r ? errno : 0));
  fflush(stdout);
  (void)secret;
  return 0;
}

int main(void) { return run_attack("forged sigsys", NULL); }
