/* check.c - fail-stop reporting: dipc_fatal for C invariants and
 * dipc_gate_panic for violations detected by gates and proxies. */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

/* abort(), which stops the process: the loader's handler takes a SIGABRT
 * in a callee for a crash of the callee and resumes its caller, so the
 * default action comes back first (the system call itself: the loader's
 * sigaction is the program's; libc's, since check.c uses no part of the
 * runtime). A violation is never recovered from. */
static __attribute__((noreturn)) void stop_process(void) {
  struct {
    void *handler;
    unsigned long flags;
    void *restorer;
    uint64_t mask;
  } dfl = {SIG_DFL, 0, NULL, 0};
  syscall(SYS_rt_sigaction, SIGABRT, &dfl, NULL, sizeof dfl.mask);
  abort();
}

void dipc_fatal(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "dipc: %s:%d: ", file, line);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  stop_process();
}

/* Reached from assembly with PKRU 0 on the panic stack. */
DIPC_HIDDEN __attribute__((noreturn)) void dipc_gate_panic(int reason);
void dipc_gate_panic(int reason) {
  static const char *const what[] = {
      [PANIC_GATE] = "WRPKRU gate entered with a foreign PKRU value",
      [PANIC_THREAD] = "thread state pointer does not belong to this thread",
      [PANIC_STACK] = "stack pointer outside the thread's stack (P2)",
      [PANIC_KCS_FULL] = "kernel control stack overflow",
      [PANIC_KCS_RET] = "proxy return without its KCS entry on top",
      [PANIC_NESTED] = "runtime gate entered from inside a gate",
      [PANIC_CTX] = "gate arguments not on the caller's stack",
      [PANIC_NO_GRANT] = "a domain called a proxy without a call grant to "
                         "it (never granted or revoked)",
      [PANIC_XRSTOR] = "a gate's XRSTOR was reached with PKRU in its mask",
  };
  const char *msg = reason > 0 && reason <= PANIC_XRSTOR ? what[reason] : "?";
  fprintf(stderr, "dipc: security violation: %s\n", msg);
  stop_process();
}
