// Under `sfi` a signal handler of instrumented code may not change the
// context its signal interrupted: the kernel resumes it as the handler
// left it (rt_sigreturn), so a handler that rewrote the saved rip (or any
// register, or the alternate stack the kernel restores from it) would send
// execution anywhere, past every check. Domain `evil` (from its entry) and
// the default domain (main) each install a SA_SIGINFO handler for SIGUSR1
// that points the interrupted rip at a function no jump may reach, then
// raise it: the loader puts the context back as it was and says so, and
// the program goes on where the signal came. The handler also rewrites
// every copy of the interrupted registers it finds on the alternate stack
// below its context (the loader's own copy was there once, and the check
// passed): the runtime keeps it in the thread's state. Control: under
// `none` the rewritten rip is followed.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi evil 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi main 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi evil 2>&1 | FileCheck %s --check-prefix=HIJACKED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi main 2>&1 | FileCheck %s --check-prefix=HIJACKED
// SFI-NOT: hijacked
// SFI: dipc: sfi: a signal handler changed the context its signal interrupted: refused, it resumes as it was
// SFI: handler ran 1 time(s), resumed where the signal came
// HIJACKED: context hijacked
#include "Inputs/vault.h"

#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

static volatile int runs;

static void hijacked(void) {
  static const char msg[] = "context hijacked\n";
  (void)!write(STDOUT_FILENO, msg, sizeof msg - 1);
  _exit(0);
}

static void rewrite(int sig, siginfo_t *info, void *ucv) {
  (void)sig, (void)info;
  ucontext_t *uc = ucv;
  const greg_t *g = uc->uc_mcontext.gregs;
  for (greg_t *p = (greg_t *)((uintptr_t)uc & ~7ul) - NGREG;
       (char *)p >= (char *)uc - 16384; --p)
    if (!memcmp(p, g, sizeof(gregset_t)))
      p[REG_RIP] = (greg_t)hijacked;
  uc->uc_mcontext.gregs[REG_RIP] = (greg_t)hijacked;
  runs++;
}

static long install(void) {
  struct sigaction act;
  memset(&act, 0, sizeof act);
  act.sa_sigaction = rewrite;
  act.sa_flags = SA_SIGINFO;
  sigemptyset(&act.sa_mask);
  return sigaction(SIGUSR1, &act, NULL);
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)aux, (void)secret, (void)key, (void)loot;
  return install();
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "evil";
  if (strcmp(mode, "evil") == 0)
    run_attack(mode, NULL);
  else
    install();
  fflush(stdout);
  raise(SIGUSR1);
  printf("handler ran %d time(s), resumed where the signal came\n", runs);
  return 0;
}
