// Under `sfi` libc writes whatever its caller names: domain `evil` tries to
// have it write its own row of the rights matrix (dipc/sfi.h), which would
// give it every right. `modf`: the integral part of a double whose bytes
// are rights, stored over the row (any libc function with a pointer to
// write would do; the compiled-in check of a C library call's pointer
// arguments, docs/compiler.md, stops it); `modf-pointer`: the same call
// through a function pointer (checked after the call check let libc's
// function through); `ioctl`: FIONREAD of a pipe holding 3 bytes, the
// int the kernel writes (ioctl's interceptor, loader/sfi_syscalls.c);
// `waitpid`: a child's exit status, which the domain chooses; `uname`:
// the kernel's names (loader/sfi_kernel.c); `fillset`:
// sigfillset on the row (128 bytes of ones); `procmask`: the old mask of
// sigprocmask, after blocking signals other than the faults' (a domain
// blocking those only makes its next fault end the process); `action`: the old action of
// sigaction; `altstack`: the row as the alternate signal stack, on which
// the kernel would write the next signal's frame (the domain's registers).
// Each write is refused: `modf` faults in the check before the call, the
// next three in the loader's interceptors (loader/sfi_signals.c,
// signals.c), and main gets
// DIPC_EFAULT; sigaltstack fails with EPERM and the read of vault's secret
// that follows faults. Control: the same source without the checks under
// `none` steals the secret.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lm
// RUN: %dipc-clang -fdipc -O2 %s -o %t -lm
// RUN: %dipc-clang -fdipc -fdipc-sfi -O0 %s -o %t.sfi-O0 -lm
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi modf 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi-O0 modf 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi modf-pointer 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=none %t modf-pointer 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi ioctl 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi waitpid 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi uname 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi fillset 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi procmask 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi action 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi altstack 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-ALTSTACK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t modf 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t fillset 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t procmask 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI-NOT: stole
// SFI-FAULT-NOT: written
// SFI-ALTSTACK: dipc: sfi: sigaltstack refused to the running domain
// SFI-ALTSTACK: sigaltstack: -1 (Operation not permitted)
// SFI: attack returned 0, dipc_errno 14
// SFI-NEXT: nothing stolen
// STOLEN: stole 'vault-secret-42'
#include "Inputs/vault.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#define MATRIX 0x78000000UL /* DIPC_SFI_RIGHTS_ADDR */
#define ROW 2048            /* DIPC_SFI_TAGS */

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  char *row = (char *)(MATRIX + (uintptr_t)dipc_current_domain() * ROW);
  if (strncmp(mode, "modf", 4) == 0) {
    /* 2^65 * 1.0101...: integral, so stored whole; its low 7 bytes are 3
     * (read and write on the first 7 tags, the domains') */
    union {
      uint64_t bits;
      double value;
    } rights = {.bits = 0x4403030303030303ull};
    double (*volatile fn)(double, double *) = modf;
    if (strcmp(mode, "modf") == 0)
      modf(rights.value, (double *)row);
    else
      fn(rights.value, (double *)row);
    printf("modf: written\n");
  } else if (strcmp(mode, "ioctl") == 0) {
    int fds[2];
    if (pipe(fds) == 0 && write(fds[1], "abc", 3) == 3)
      ioctl(fds[0], FIONREAD, (int *)row);
    printf("ioctl: written\n");
  } else if (strcmp(mode, "waitpid") == 0) {
    pid_t child = fork();
    if (child == 0)
      _exit(3); /* status 0x300: byte 1 of the int is 3 */
    if (child > 0)
      waitpid(child, (int *)row, 0);
    printf("waitpid: written\n");
  } else if (strcmp(mode, "uname") == 0) {
    uname((struct utsname *)row);
    printf("uname: written\n");
  } else if (strcmp(mode, "fillset") == 0) {
    sigfillset((sigset_t *)row);
    printf("sigfillset: written\n");
  } else if (strcmp(mode, "procmask") == 0) {
    sigset_t some;
    sigemptyset(&some);
    for (int sig = SIGHUP; sig <= SIGSYS; sig++)
      if (sig != SIGSEGV && sig != SIGBUS && sig != SIGILL &&
          sig != SIGFPE && sig != SIGTRAP && sig != SIGABRT)
        sigaddset(&some, sig);
    sigprocmask(SIG_BLOCK, &some, NULL);
    sigprocmask(SIG_BLOCK, &some, (sigset_t *)row);
    printf("sigprocmask: written\n");
  } else if (strcmp(mode, "action") == 0) {
    sigaction(SIGUSR1, NULL, (struct sigaction *)row);
    printf("sigaction: written\n");
  } else {
    stack_t ss = {.ss_sp = row, .ss_size = 64 * 1024};
    int r = sigaltstack(&ss, NULL);
    printf("sigaltstack: %d (%s)\n", r, r ? strerror(errno) : "ok");
    raise(SIGSEGV);
  }
  fflush(stdout);
  take(secret, loot);
  return 1;
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "fillset", NULL);
}
