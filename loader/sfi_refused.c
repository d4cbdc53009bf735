/* sfi_refused.c - libc functions whose state is a structure of the
 * caller's holding pointers libc follows (or reads again later, from a
 * helper thread), refused to instrumented code under `sfi`: no check when
 * they are called holds afterwards. An attack round made each steal or
 * write across domains: random_r's state pointers copied the secret word
 * by word, hsearch_r's table wrote over the rights matrix, a regex_t's
 * translate table read the secret byte by byte, an aiocb's buffer went to
 * a pipe from aio's own thread. libgcc's unwinder calls the stop and
 * trace functions it is given (from an exception of the caller's) with no
 * check: a stop function pointing into the middle of an instrumented
 * function, past its check, copied vault's secret. Other code (libc,
 * plain libraries) calls them as usual. */
#define _GNU_SOURCE
#include "sfi_intercept.h"
#include "thread_state.h"

#include <aio.h>
#include <errno.h>
#include <netdb.h>
#include <regex.h>
#include <search.h>
#include <stdlib.h>
#include <unwind.h>

#define REFUSE(fail) return (sfi_refuse(__func__), (fail))

SFI_EXPORT int random_r(struct random_data *buf, int32_t *result) {
  if (SFI_CHECKED())
    REFUSE(-1);
  return NEXT(random_r)(buf, result);
}

SFI_EXPORT int srandom_r(unsigned seed, struct random_data *buf) {
  if (SFI_CHECKED())
    REFUSE(-1);
  return NEXT(srandom_r)(seed, buf);
}

SFI_EXPORT int initstate_r(unsigned seed, char *state, size_t n,
                           struct random_data *buf) {
  if (SFI_CHECKED())
    REFUSE(-1);
  return NEXT(initstate_r)(seed, state, n, buf);
}

SFI_EXPORT int setstate_r(char *state, struct random_data *buf) {
  if (SFI_CHECKED())
    REFUSE(-1);
  return NEXT(setstate_r)(state, buf);
}

SFI_EXPORT int hcreate_r(size_t n, struct hsearch_data *table) {
  if (SFI_CHECKED())
    REFUSE(0);
  return NEXT(hcreate_r)(n, table);
}

SFI_EXPORT int hsearch_r(ENTRY item, ACTION action, ENTRY **found,
                         struct hsearch_data *table) {
  if (SFI_CHECKED())
    REFUSE(0);
  return NEXT(hsearch_r)(item, action, found, table);
}

SFI_EXPORT void hdestroy_r(struct hsearch_data *table) {
  if (SFI_CHECKED()) {
    sfi_refuse(__func__);
    return;
  }
  NEXT(hdestroy_r)(table);
}

SFI_EXPORT int regcomp(regex_t *re, const char *pattern, int flags) {
  if (SFI_CHECKED())
    REFUSE(REG_ESPACE);
  return NEXT(regcomp)(re, pattern, flags);
}

SFI_EXPORT int regexec(const regex_t *re, const char *s, size_t n,
                       regmatch_t match[n], int flags) {
  if (SFI_CHECKED())
    REFUSE(REG_ESPACE);
  return NEXT(regexec)(re, s, n, match, flags);
}

SFI_EXPORT size_t regerror(int code, const regex_t *re, char *buf,
                           size_t n) {
  if (SFI_CHECKED())
    REFUSE(0);
  return NEXT(regerror)(code, re, buf, n);
}

SFI_EXPORT void regfree(regex_t *re) {
  if (SFI_CHECKED()) {
    sfi_refuse(__func__);
    return;
  }
  NEXT(regfree)(re);
}

SFI_EXPORT const char *re_compile_pattern(const char *pattern, size_t n,
                                          struct re_pattern_buffer *re) {
  if (SFI_CHECKED())
    REFUSE("refused under sfi");
  return NEXT(re_compile_pattern)(pattern, n, re);
}

SFI_EXPORT int re_compile_fastmap(struct re_pattern_buffer *re) {
  if (SFI_CHECKED())
    REFUSE(-2);
  return NEXT(re_compile_fastmap)(re);
}

SFI_EXPORT regoff_t re_search(struct re_pattern_buffer *re, const char *s,
                              regoff_t n, regoff_t start, regoff_t range,
                              struct re_registers *regs) {
  if (SFI_CHECKED())
    REFUSE(-2);
  return NEXT(re_search)(re, s, n, start, range, regs);
}

SFI_EXPORT regoff_t re_match(struct re_pattern_buffer *re, const char *s,
                             regoff_t n, regoff_t start,
                             struct re_registers *regs) {
  if (SFI_CHECKED())
    REFUSE(-2);
  return NEXT(re_match)(re, s, n, start, regs);
}

SFI_EXPORT regoff_t re_search_2(struct re_pattern_buffer *re, const char *s1,
                                regoff_t n1, const char *s2, regoff_t n2,
                                regoff_t start, regoff_t range,
                                struct re_registers *regs, regoff_t stop) {
  if (SFI_CHECKED())
    REFUSE(-2);
  return NEXT(re_search_2)(re, s1, n1, s2, n2, start, range, regs, stop);
}

SFI_EXPORT regoff_t re_match_2(struct re_pattern_buffer *re, const char *s1,
                               regoff_t n1, const char *s2, regoff_t n2,
                               regoff_t start, struct re_registers *regs,
                               regoff_t stop) {
  if (SFI_CHECKED())
    REFUSE(-2);
  return NEXT(re_match_2)(re, s1, n1, s2, n2, start, regs, stop);
}

SFI_EXPORT void re_set_registers(struct re_pattern_buffer *re,
                                 struct re_registers *regs, __re_size_t n,
                                 regoff_t *starts, regoff_t *ends) {
  if (SFI_CHECKED()) {
    sfi_refuse(__func__);
    return;
  }
  NEXT(re_set_registers)(re, regs, n, starts, ends);
}

/* aio's helper threads read the aiocb (buffer, length, sigevent) later,
 * with no runtime state; getaddrinfo_a's likewise its gaicb list. */
SFI_EXPORT int aio_read(struct aiocb *cb) {
  if (SFI_CHECKED())
    REFUSE(-1);
  return NEXT(aio_read)(cb);
}

SFI_EXPORT int aio_write(struct aiocb *cb) {
  if (SFI_CHECKED())
    REFUSE(-1);
  return NEXT(aio_write)(cb);
}

SFI_EXPORT int aio_fsync(int op, struct aiocb *cb) {
  if (SFI_CHECKED())
    REFUSE(-1);
  return NEXT(aio_fsync)(op, cb);
}

SFI_EXPORT int lio_listio(int mode, struct aiocb *const list[], int n,
                          struct sigevent *sev) {
  if (SFI_CHECKED())
    REFUSE(-1);
  return NEXT(lio_listio)(mode, list, n, sev);
}

SFI_EXPORT int getaddrinfo_a(int mode, struct gaicb *list[], int n,
                             struct sigevent *sev) {
  if (SFI_CHECKED())
    REFUSE(EAI_SYSTEM);
  return NEXT(getaddrinfo_a)(mode, list, n, sev);
}

SFI_EXPORT _Unwind_Reason_Code _Unwind_ForcedUnwind(struct _Unwind_Exception *e,
                                                   _Unwind_Stop_Fn stop,
                                                   void *arg) {
  if (SFI_CHECKED())
    REFUSE(_URC_FATAL_PHASE1_ERROR);
  return NEXT(_Unwind_ForcedUnwind)(e, stop, arg);
}

/* _Unwind_Resume ends a landing pad and _Unwind_Resume_or_Rethrow a
 * rethrow (libstdc++'s __cxa_rethrow): with the exception's private_1 set,
 * that of a forced unwind, libgcc calls it as the stop function with
 * private_2, both in memory the domain writes (a forged exception ran
 * evil's function so, e2e/attack-sfi-unwind-callbacks.c mode resume; a
 * caught one, private_1 set in the handler and thrown again, ran libc's
 * syscall on vault's secret, e2e/attack-sfi-rethrow-stop-function.cpp).
 * While a named domain runs, whoever calls (its landing pads,
 * libstdc++'s on its behalf), a forced unwind is refused (the call
 * faults; its pthread_exit ends the call without one, threads.c) and an
 * exception is raised again from the caller's frame:
 * _Unwind_RaiseException searches anew, writes
 * private_1 and 2 itself (so the domain must be able to write them: a
 * read-only grant let it write 8 bytes of vault's) and calls no stop
 * function, whatever another thread writes there meanwhile. The default
 * domain's go to libgcc (pthread_exit's cleanups; it may write libc's
 * data anyway). */
static int resume_checked(struct _Unwind_Exception *e, const char *call) {
  /* any caller: a thread without runtime state of its own runs as the
   * default domain */
  if (!sfi_code_on || !loader_own_state() || sfi_running_domain() == 0)
    return 0;
  SFI_WRITE(e, sizeof *e);
  if (__atomic_load_n(&e->private_1, __ATOMIC_RELAXED) != 0)
    sfi_refuse_fault(call);
  return 1;
}

SFI_EXPORT __attribute__((noreturn)) void
_Unwind_Resume(struct _Unwind_Exception *e) {
  if (resume_checked(e, "_Unwind_Resume of a forced unwind")) {
    NEXT(_Unwind_RaiseException)(e); /* returns only if no frame handles it */
    sfi_refuse_fault("_Unwind_Resume of an exception no frame handles");
  }
  NEXT(_Unwind_Resume)(e);
}

SFI_EXPORT _Unwind_Reason_Code
_Unwind_Resume_or_Rethrow(struct _Unwind_Exception *e) {
  if (resume_checked(e, "_Unwind_Resume_or_Rethrow of a forced unwind"))
    return NEXT(_Unwind_RaiseException)(e); /* what libgcc does then */
  return NEXT(_Unwind_Resume_or_Rethrow)(e);
}

SFI_EXPORT _Unwind_Reason_Code _Unwind_Backtrace(_Unwind_Trace_Fn trace,
                                                 void *arg) {
  if (SFI_CHECKED())
    REFUSE(_URC_FATAL_PHASE1_ERROR);
  return NEXT(_Unwind_Backtrace)(trace, arg);
}
