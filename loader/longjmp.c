/* longjmp.c - the longjmp family, which may leave cross-domain calls (a
 * time-out with alarm and siglongjmp out of a running callee): before
 * jumping, the runtime pops the calls and signal frames the jump leaves
 * (dipc_unwind_jump), restoring what a return would; a jump it refuses
 * stops here. Under `sfi` a jump must also resume exactly the context the
 * thread's last setjmp into that buffer saved (setjmp.S records it):
 * glibc's pointer guard, which mangles three of its words, lies in the
 * TCB, which a domain may read, so a buffer could send a jump anywhere. */
#define _GNU_SOURCE
#include <dipc/rt.h>

#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

#include "interpose.h"
#include "sfi_intercept.h"
#include "sfi_real.h"
#include "signals.h"

#include <dipc/sfi.h>

typedef void (*jump_fn)(struct __jmp_buf_tag *, int)
    __attribute__((noreturn));

typedef int (*sigsetjmp_fn)(struct __jmp_buf_tag *, int);

/* glibc's __jmpbuf: rbx, rbp, r12-r15, rsp, pc; rbp, rsp and pc mangled
 * with the thread's pointer guard (tcbhead_t.pointer_guard, %fs:0x30):
 * rol 0x11 of the xor. */
enum { JB_RSP = 6, JB_PC = 7 };

static uintptr_t demangle(uintptr_t v) {
  uintptr_t guard;
  __asm__("mov %%fs:0x30, %0" : "=r"(guard));
  return ((v >> 0x11) | (v << (64 - 0x11))) ^ guard;
}

void __dipc_sfi_jmp_record(const void *buf, const uintptr_t *ctx);

/* Whether pc lies in the object that defines libc_fn. libc never calls the
 * setjmp family through its own symbols but when a domain handed it one
 * (an obstack's chunk function): a context saved there would resume
 * libc halfway with a value of the domain's choosing, so none is kept. */
static int in_libc(uintptr_t pc, const void *libc_fn) {
  Dl_info at, libc;
  return dladdr((const void *)pc, &at) && dladdr(libc_fn, &libc) &&
         at.dli_fbase == libc.dli_fbase;
}
const uintptr_t *__dipc_sfi_jump_take(const void *buf);
/* setjmp.S: takes buf's context again (checked, __dipc_sfi_jump_take) and
 * resumes it from the runtime's copy, with val (1 for 0). */
__attribute__((noreturn)) void sfi_longjmp(const void *buf, int val);

/* setjmp.S: the context glibc's __sigsetjmp is about to save into buf
 * (DIPC_SFI_JMP_WORDS, unmangled), kept by the runtime under `sfi`;
 * returns that __sigsetjmp. */
__attribute__((visibility("hidden"))) sigsetjmp_fn
setjmp_record(struct __jmp_buf_tag *buf, const uintptr_t *ctx) {
  sigsetjmp_fn real = NEXT_AS(sigsetjmp_fn, "__sigsetjmp");
  /* Instrumented code, the common caller, is not libc: no lookup. Its
   * buffer must be its to write (glibc writes the registers there, and
   * the signal mask: an attack round's setjmp into vault's memory wrote
   * its registers' values over vault's secret). */
  if (sfi_code_on && sfi_code_contains(ctx[JB_PC])) {
    SFI_WRITE(buf, sizeof *buf);
    __dipc_sfi_jmp_record(buf, ctx);
  } else if (sfi_code_on && !in_libc(ctx[JB_PC], (const void *)real)) {
    __dipc_sfi_jmp_record(buf, ctx);
  }
  return real;
}

__attribute__((noreturn)) static void jump(jump_fn real, const char *name,
                                           struct __jmp_buf_tag *env,
                                           int val) {
  /* Under sfi the words come from the runtime's checked copy, and the
   * jump is made from it, not by glibc from the buffer: another thread of
   * the domain could rewrite the buffer after the check. */
  uintptr_t sp = sfi_code_on ? __dipc_sfi_jump_take(env)[JB_RSP]
                             : demangle((uintptr_t)env->__jmpbuf[JB_RSP]);
  long r = dipc_unwind_jump((const void *)sp);
  if (r == -DIPC_EPERM)
    __builtin_trap(); /* a domain leaving its call: its crash */
  if (r != 0) {
    fprintf(stderr,
            "dipc: %s to a frame this thread cannot resume there (outside "
            "the stack it would run on, or leaving cross-domain calls to "
            "a domain other than the default one); stopping\n",
            name);
    abort();
  }
  signals_jumping(sp);
  if (!sfi_code_on)
    real(env, val);
  /* What glibc's longjmp does before its jump (but the unwinding of
   * pthread_cleanup_push frames on the way, which a jump under sfi skips). */
  if (env->__mask_was_saved)
    pthread_sigmask(SIG_SETMASK, (const sigset_t *)&env->__saved_mask, NULL);
  sfi_longjmp(env, val);
}

/* libc's function is looked up before the gate: the jump's destination
 * may run with rights that do not reach the loader's data. */
#define INTERPOSE(name)                                                        \
  __attribute__((visibility("default"), noreturn)) void name(                  \
      struct __jmp_buf_tag env[1], int val) {                                  \
    if (SFI_CHECKED()) /* an attack round read vault's words this way */       \
      SFI_READ(env, sizeof *env);                                              \
    jump(NEXT_AS(jump_fn, #name), #name, env, val);                            \
  }

INTERPOSE(longjmp)
INTERPOSE(_longjmp)
INTERPOSE(siglongjmp)
INTERPOSE(__longjmp_chk)

/* setcontext and swapcontext resume whatever context a ucontext_t holds,
 * which a domain can forge as it can a jmp_buf (and mangled nothing): under
 * `sfi` they are refused to instrumented code. */
SFI_EXPORT int setcontext(const ucontext_t *ucp) {
  if (SFI_CHECKED())
    return (int)sfi_refuse("setcontext");
  return NEXT(setcontext)(ucp);
}

SFI_EXPORT int swapcontext(ucontext_t *restrict oucp,
                           const ucontext_t *restrict ucp) {
  if (SFI_CHECKED())
    return (int)sfi_refuse("swapcontext");
  return NEXT(swapcontext)(oucp, ucp);
}
