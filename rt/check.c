/* check.c - fail-stop reporting: dipc_fatal for C invariants and
 * dipc_gate_panic for violations detected by gates and proxies. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

void dipc_fatal(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "dipc: %s:%d: ", file, line);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort();
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
  abort();
}
