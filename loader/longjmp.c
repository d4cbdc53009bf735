/* longjmp.c - the longjmp family, which may leave cross-domain calls (a
 * time-out with alarm and siglongjmp out of a running callee): before
 * jumping, the runtime pops the calls and signal frames the jump leaves
 * (dipc_unwind_jump), restoring what a return would; a jump it refuses
 * stops here. */
#define _GNU_SOURCE
#include <dipc/rt.h>

#include <dlfcn.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "interpose.h"
#include "signals.h"

typedef void (*jump_fn)(struct __jmp_buf_tag *, int)
    __attribute__((noreturn));

/* glibc keeps the stack pointer in slot 6, mangled with the thread's
 * pointer guard (tcbhead_t.pointer_guard, %fs:0x30): rol 0x11 of the xor. */
enum { JB_RSP = 6 };

static uintptr_t jump_sp(const struct __jmp_buf_tag *env) {
  uintptr_t v = (uintptr_t)env->__jmpbuf[JB_RSP], guard;
  __asm__("mov %%fs:0x30, %0" : "=r"(guard));
  return ((v >> 0x11) | (v << (64 - 0x11))) ^ guard;
}

__attribute__((noreturn)) static void jump(const char *name,
                                           struct __jmp_buf_tag *env,
                                           int val) {
  /* Resolved before the gate: the jump's destination may run with rights
   * that do not reach the loader's data. */
  jump_fn real = (jump_fn)interpose_next(name);
  uintptr_t sp = jump_sp(env);
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
  real(env, val);
}

#define INTERPOSE(name)                                                        \
  __attribute__((visibility("default"), noreturn)) void name(                  \
      struct __jmp_buf_tag env[1], int val) {                                  \
    jump(#name, env, val);                                                     \
  }

INTERPOSE(longjmp)
INTERPOSE(_longjmp)
INTERPOSE(siglongjmp)
INTERPOSE(__longjmp_chk)
