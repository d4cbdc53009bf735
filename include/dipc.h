/* dipc.h - source annotations for direct inter-process communication.
 *
 * Compiled with `dipc-clang -fdipc` (which defines __DIPC__) the macros below
 * become attributes of the dIPC clang plugin; without it they expand to
 * nothing and the program is an ordinary, unisolated C program (the paper's
 * "Ideal (unsafe)" baseline).
 *
 *   __dom("db")              function/global belongs to domain "db"
 *   __entry                  function is a public entry point of its domain
 *   __perm("db", read)       the annotated item's domain may call/read/write "db"
 *   __iso_caller(props...)   isolation a caller wants for its cross-domain calls
 *   __iso_callee(props...)   isolation an entry point wants from its callers
 *
 * Properties are the enum constants below, combined with ',' or '|', or the
 * same names as strings: __iso_callee(reg_integrity | reg_confidentiality).
 */
#ifndef DIPC_H
#define DIPC_H

#ifdef __cplusplus
extern "C" {
#endif

/* Isolation properties (paper §5.2.3). */
enum dipc_iso_property {
  reg_integrity = 1 << 0,
  reg_confidentiality = 1 << 1,
  stack_integrity = 1 << 2,
  stack_confidentiality = 1 << 3,
  dcs_integrity = 1 << 4,
  dcs_confidentiality = 1 << 5,
};

/* Error codes reported through dipc_errno after a cross-domain call. */
#define DIPC_EFAULT 14 /* the callee domain faulted; its call returned 0 */
/* A C++ exception escaped the entry: the callee stub caught and destroyed
 * it (exceptions do not cross domains); the call returned 0. */
#define DIPC_EEXCEPTION 131
/* The call ran past the thread's time-out (dipc_set_call_timeout) and was
 * unwound; it returned 0. */
#define DIPC_ETIMEDOUT 110

#if defined(__DIPC__)

#include "dipc/abi.h"

#define __dom(name) __attribute__((dipc_dom(name)))
#define __entry __attribute__((dipc_entry))
/* `perm` is a bare word (call, read, write): stringized so it never collides
 * with functions such as read(2). */
#define __perm(dom, perm) __attribute__((dipc_perm(dom, #perm)))
#define __iso_caller(...) __attribute__((dipc_iso_caller(__VA_ARGS__)))
#define __iso_callee(...) __attribute__((dipc_iso_callee(__VA_ARGS__)))

/* 0 after a successful cross-domain call (set by the caller stub),
 * DIPC_EFAULT when the callee crashed, DIPC_EEXCEPTION when an exception
 * escaped the entry (set by the runtime's recovery). Per thread, like errno. It lives in
 * the thread's public page (shared key), and the macro calls libdipc through
 * the runtime vector at a fixed address (dipc/abi.h) rather than the PLT,
 * so code of any domain can read it without access to the default domain. */
int *__dipc_errno_location(void);
#define dipc_errno                                                             \
  (*(*(int *(*const *)(void))(__UINTPTR_TYPE__)DIPC_VECTOR_ERRNO_LOCATION)())

#else /* !__DIPC__: annotations vanish. */

#define __dom(name)
#define __entry
#define __perm(dom, perm)
#define __iso_caller(...)
#define __iso_callee(...)

/* Without dIPC no call crosses a domain, so nothing ever sets it. */
static inline int *__dipc_errno_unisolated(void) {
  static __thread int value;
  return &value;
}
#define dipc_errno (*__dipc_errno_unisolated())

#endif /* __DIPC__ */

#ifdef __cplusplus
}
#endif

#endif /* DIPC_H */
