/* signals.c - crash signals go to dIPC first; what is not a callee crash
 * goes to the program's handler, or ends the process exactly as it would
 * without dIPC (same signal, same status). The program's sigaction() and
 * signal() calls for these signals are recorded here instead of replacing
 * the loader's handler; its handlers for other signals run behind a small
 * front handler that gives them a usable stack and PKRU. */
#define _GNU_SOURCE
#include "stream_memory.h"
#include "interpose.h"
#include "gate_call.h"
#include "sfi_intercept.h"
#include "signals.h"
#include "xproc.h"

#include <dipc/rt.h>
#include <dipc/sfi.h>

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef SS_AUTODISARM /* Linux's, not in glibc's headers */
#define SS_AUTODISARM ((int)(1u << 31))
#endif

/* SIGSYS: the seccomp filter's traps (mpk), rt/exec.c. */
/* SIGABRT and SIGTRAP: abort()/assert() and int3 in a callee are crashes
 * of the callee like the others. */
static const int crash_signals[] = {SIGSEGV, SIGBUS,  SIGILL, SIGFPE,
                                    SIGABRT, SIGTRAP, SIGSYS};
enum { NUM_CRASH_SIGNALS = sizeof crash_signals / sizeof crash_signals[0] };

static fault_recovery_fn recover_fault;
static fault_report_fn report_fault;
static int installed;
/* The program's action for each signal: the loader's handler stands in
 * front of it for the crash signals always, and for other signals while it
 * is a handler function (stands_in_for). */
static struct sigaction program_action[NSIG];
/* What runs for the handler function of program_action: a proxy that runs
 * it as the domain that installed it (dipc_domain_callback), or the
 * function itself for the default domain. A domain's handler run as the
 * default domain would have the default domain's rights. */
static void *program_run[NSIG];
static pthread_mutex_t program_action_lock = PTHREAD_MUTEX_INITIALIZER;

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);

/* A record of sfi_real.h's: under sfi the alias table (sfi_alias.c) then
 * binds libc's other names of it (__sigaction) to the loader's. */
static sigaction_fn real_sigaction(void) {
  return NEXT_AS(sigaction_fn, "sigaction");
}

static int crash_index(int sig) {
  for (int i = 0; i < NUM_CRASH_SIGNALS; ++i)
    if (crash_signals[i] == sig)
      return i;
  return -1;
}

static int has_handler_function(const struct sigaction *act) {
  return (act->sa_flags & SA_SIGINFO) ||
         (act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN);
}

/* Whether the kernel's action for sig is the loader's, not the program's. */
static int stands_in_for(int sig) {
  return crash_index(sig) >= 0 || has_handler_function(&program_action[sig]);
}

/* Under `sfi` a handler of instrumented code may not change, in the
 * context its signal interrupted, where and with which registers that
 * code resumes, nor the alternate stack and the FP state's address the
 * kernel restores from it (rt_sigreturn): either would send execution or
 * the kernel's writes anywhere, past every check. The runtime keeps them
 * in the thread's state (a copy here, beside the kernel's frame, was the
 * handler's to rewrite too) and puts them back after the handler. */
int __dipc_sfi_context_keep(const void *uc);
int __dipc_sfi_context_restore(void *uc);

static void say(const char *line) {
  (void)!write(STDERR_FILENO, line, strlen(line));
}

/* Runs the program's handler function for sig, if it has one; 0 if its
 * action is SIG_DFL or SIG_IGN. */
static int run_program_handler(int sig, const struct sigaction *act,
                               void *run, siginfo_t *info, void *uc) {
  if (!has_handler_function(act) || !run)
    return 0;
  if (act->sa_flags & SA_RESETHAND) {
    program_action[sig].sa_handler = SIG_DFL;
    program_action[sig].sa_flags &= ~SA_SIGINFO;
  }
  int keep = uc && sfi_code_checks((const void *)act->sa_handler);
  int kept = keep ? __dipc_sfi_context_keep(uc) : 0;
  if (kept != 0) {
    say(kept == -2 ? "dipc: sfi: too many signal handlers nested on this "
                     "thread to keep what they interrupted: this one does "
                     "not run\n"
                   : "dipc: sfi: a signal came to a thread without runtime "
                     "state, which could not keep what it interrupted: its "
                     "handler does not run\n");
    return 1;
  }
  /* On this stack, with the interrupted call's state kept aside: the
   * handler (a proxy into its domain, or the default domain's) may call
   * across domains. */
  int framed = GATE_CALL(__dipc_signal_enter(uc));
  int window = stream_memory_suspend(); /* domain code: not libc's */
  if (act->sa_flags & SA_SIGINFO)
    ((void (*)(int, siginfo_t *, void *))run)(sig, info, uc);
  else
    ((void (*)(int))run)(sig);
  stream_memory_resume(window);
  int changed = keep ? __dipc_sfi_context_restore(uc) : 0;
  if (changed > 0)
    say("dipc: sfi: a signal handler changed the context its signal "
        "interrupted: refused, it resumes as it was\n");
  if (changed < 0) {
    say("dipc: sfi: the context a signal handler interrupted was lost; "
        "stopping\n");
    abort();
  }
  if (framed)
    GATE_CALL(__dipc_signal_leave(uc));
  return 1;
}

/* Not dIPC's crash: behave as the program asked, or as the default. The
 * recovery gate left the default domain's image installed, so the
 * program's handler can use the thread's stack as well as its TLS. */
static void forward_to_program(int sig, siginfo_t *info, void *uc) {
  struct sigaction act = program_action[sig];
  /* An access the sfi check refused faulted on the trap page: the
   * program's handler gets the address the access named, as it would
   * get a protection fault's. */
  siginfo_t own = *info;
  uintptr_t at, expected;
  uint64_t size;
  int write;
  uint32_t running, tag, kind;
  if (sig == SIGSEGV && (uintptr_t)info->si_addr == DIPC_SFI_TRAP_ADDR &&
      __dipc_sfi_fault_info(&at, &size, &write, &running, &tag, &kind,
                            &expected) &&
      kind == 0) {
    own.si_addr = (void *)at;
    own.si_code = SEGV_ACCERR;
  }
  if (run_program_handler(sig, &act, program_run[sig], &own, uc) ||
      act.sa_handler == SIG_IGN)
    return;
  /* Default action: uninstall ourselves and let the faulting instruction
   * run again (or re-raise a sent signal), so the kernel reports the same
   * signal and core status as without dIPC. */
  if (report_fault)
    report_fault(sig, info);
  struct sigaction dfl = {.sa_handler = SIG_DFL};
  sigemptyset(&dfl.sa_mask);
  real_sigaction()(sig, &dfl, NULL);
  /* Sent signals, and those whose instruction does not run again (a
   * trap's, int3's) are raised again. */
  if (info->si_code <= 0 || sig == SIGSYS || sig == SIGTRAP)
    raise(sig);
}

/* sigaltstack(2) without errno: a handler may run on a migrant thread
 * whose fs is another process's TCB (xproc). */
static long raw_sigaltstack(const stack_t *ss, stack_t *old) {
  long r;
  __asm__ volatile("syscall"
                   : "=a"(r)
                   : "0"((long)SYS_sigaltstack), "D"(ss), "S"(old)
                   : "rcx", "r11", "memory");
  return r;
}

/* The loader's handlers run on the thread's alternate stack, which Linux
 * disarms while they run (SS_AUTODISARM). What they run may leave that
 * stack with their frames still on it: the program's handler calling
 * across domains runs the callee on the callee's stack, a gate on the
 * runtime's. A signal then (the callee's crash, say) would get its frame
 * at the alternate stack's top, over theirs, and under `mpk` a disarmed
 * stack would put it on the runtime's. So each handler first arms again
 * the part below the half of what is left under it: a nested handler gets
 * [base, here - (here - base) / 2), this one keeps the rest. Its
 * sigreturn gives back the stack the signal found (uc_stack); a jump out of
 * a handler (longjmp.c) gives back the whole stack. */
static void altstack_below_here(void *ucv) {
  const ucontext_t *uc = ucv;
  uintptr_t base = (uintptr_t)uc->uc_stack.ss_sp;
  uintptr_t here = (uintptr_t)__builtin_frame_address(0);
  if (!(uc->uc_stack.ss_flags & SS_AUTODISARM) || here <= base ||
      here - base > DIPC_ALTSTACK_SIZE)
    return; /* not the loader's stack: the program's own, or none */
  uintptr_t top = (base + (here - base) / 2) & ~(uintptr_t)15;
  stack_t ss = {.ss_sp = (void *)base,
                .ss_flags = SS_AUTODISARM,
                .ss_size = top - base};
  raw_sigaltstack(&ss, NULL);
}

/* Any other signal the program handles. Linux runs a handler with only
 * key 0 accessible, on the interrupted stack (under the key of the domain
 * it runs on) unless SA_ONSTACK: the program's handler would fault on its
 * first push. It runs from here
 * instead, on the loader's key-0 alternate stack, after the recovery gate
 * (no context: no recovery) installed the default domain's image. */
static void signal_handler(int sig, siginfo_t *info, void *uc) {
  altstack_below_here(uc);
  GATE_CALL(__dipc_recover_from_fault(NULL)); /* the default domain's image */
  struct sigaction act = program_action[sig];
  run_program_handler(sig, &act, program_run[sig], info, uc);
}

static void crash_handler(int sig, siginfo_t *info, void *uc) {
  altstack_below_here(uc);
  if (sig == SIGSYS) {
    int delegated = xproc_sigsys(info, uc); /* a callee process's call */
    if (delegated == 2 || delegated == 3) {
      xproc_crash_fixup();
      /* 3: the call ran past its time-out while that process ran the
       * system call; 2: that process is gone, unwound as a crash. */
      if (delegated == 3 && GATE_CALL(__dipc_timeout_tick(uc)))
        return;
      if (recover_fault && recover_fault(uc))
        return;
    }
    if (delegated || xproc_listen_sigsys(info, uc)) /* made shareable */
      return;
    if (!dipc_syscall_trap(info, uc)) /* mmap/mprotect with PROT_EXEC */
      forward_to_program(sig, info, uc);
    return;
  }
  if (sig == SIGSEGV && xproc_segv(info, uc))
    return; /* another process's mapping, mapped here now */
  xproc_crash_fixup(); /* a crash in another process's code: our TCB */
  /* A fault inside libc while this thread holds the stream window (domain
   * code runs with it closed): the recovery unwinds past the interceptor
   * that would close it. */
  (void)stream_memory_suspend();
  if (recover_fault && recover_fault(uc))
    return; /* resumes the caller with DIPC_EFAULT */
  forward_to_program(sig, info, uc);
}

/* The time-out timers' signal (rt/timeout.c); never the program's. */
static void timeout_handler(int sig, siginfo_t *info, void *uc) {
  (void)sig, (void)info;
  altstack_below_here(uc);
  xproc_timeout_tick(uc);
}

int signals_install(fault_recovery_fn recover, fault_report_fn report) {
  if (installed)
    return 0;
  struct sigaction tick = {.sa_sigaction = timeout_handler,
                           .sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART};
  sigemptyset(&tick.sa_mask);
  if (real_sigaction()(DIPC_TIMEOUT_SIGNAL, &tick, NULL) != 0) {
    perror("dipc-loader: sigaction");
    return -1;
  }
  recover_fault = recover;
  report_fault = report;
  struct sigaction act = {.sa_sigaction = crash_handler,
                          .sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER};
  sigemptyset(&act.sa_mask);
  for (int i = 0; i < NUM_CRASH_SIGNALS; ++i) {
    int sig = crash_signals[i];
    if (real_sigaction()(sig, &act, &program_action[sig]) != 0) {
      perror("dipc-loader: sigaction");
      return -1;
    }
    /* installed before the loader: the program's, as the default domain */
    program_run[sig] = (void *)program_action[sig].sa_handler;
  }
  installed = 1;
  return signals_setup_thread();
}

/* Each thread's alternate stack: key-0 memory the loader's handlers run on
 * whatever stack the thread was on. Under mpk a gate runs on a stack of the
 * runtime's key (the trusted or bootstrap stack), a call on its domain's:
 * a signal delivered there without an alternate stack gets its frame on
 * that stack and its handler, which starts with key 0 only, faults on its
 * first push; the crash handler's frame goes there too, and so on down
 * through the runtime's memory. So a thread has its alternate stack before
 * its first gate (setup_thread, loader.c) and keeps it to the end: its last
 * gates (the runtime's exit hook, trapped munmaps of later destructors) run
 * after the key's destructor. A stack is only reused once its thread is
 * gone. Its record is the page below it, never part of the stack. */
struct altstack {
  struct altstack *next; /* retired ones */
  pid_t tid;             /* the thread it was given to */
};
#define ALTSTACK_RECORD 4096

static pthread_key_t altstack_key;
static int altstack_key_made;
static pthread_once_t altstack_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t altstack_lock = PTHREAD_MUTEX_INITIALIZER;
static struct altstack *retired;

/* tid 0: given to no thread. A recycled tid only delays the reuse. */
static int thread_gone(pid_t tid) {
  return tid == 0 ||
         (syscall(SYS_tgkill, getpid(), tid, 0) == -1 && errno == ESRCH);
}

static void retire_altstack(void *record) {
  pthread_mutex_lock(&altstack_lock);
  struct altstack *a = record;
  a->next = retired;
  retired = a;
  pthread_mutex_unlock(&altstack_lock);
}

/* A fork child must not inherit the lock held by a thread it lacks. */
static void altstack_lock_take(void) { pthread_mutex_lock(&altstack_lock); }
static void altstack_lock_give(void) { pthread_mutex_unlock(&altstack_lock); }
static void altstack_lock_reinit(void) {
  pthread_mutex_init(&altstack_lock, NULL);
}

static void make_altstack_key(void) {
  altstack_key_made = pthread_key_create(&altstack_key, retire_altstack) == 0;
  pthread_atfork(altstack_lock_take, altstack_lock_give, altstack_lock_reinit);
}

/* A retired stack whose thread is gone, or a new one. */
static struct altstack *take_altstack(void) {
  pthread_mutex_lock(&altstack_lock);
  struct altstack **p = &retired, *a = NULL;
  for (; *p; p = &(*p)->next)
    if (thread_gone((*p)->tid)) {
      a = *p;
      *p = a->next;
      break;
    }
  pthread_mutex_unlock(&altstack_lock);
  if (a)
    return a;
  void *m = mmap(NULL, ALTSTACK_RECORD + DIPC_ALTSTACK_SIZE,
                 PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return m == MAP_FAILED ? NULL : m;
}

int signals_setup_thread(void) {
  pthread_once(&altstack_once, make_altstack_key);
  if (pthread_getspecific(altstack_key))
    return 0;
  struct altstack *a = take_altstack();
  if (!a) {
    perror("dipc-loader: alternate signal stack");
    return -1;
  }
  a->tid = (pid_t)syscall(SYS_gettid);
  /* Disarmed while the loader's handlers run (altstack_below_here) under
   * `none` and `sfi` only: under `mpk` it made the time-out test
   * (e2e/timeout-unwinds-stuck-callee.c) crash in 2 of 6 runs in the VM,
   * cause not found yet; there a signal during a handler's cross-domain
   * call still lands over the handler's frames. */
  stack_t ss = {.ss_sp = (char *)a + ALTSTACK_RECORD,
                .ss_flags = strcmp(dipc_backend(), "mpk") ? SS_AUTODISARM : 0,
                .ss_size = DIPC_ALTSTACK_SIZE};
  if (sigaltstack(&ss, NULL) != 0) {
    perror("dipc-loader: sigaltstack");
    a->tid = 0; /* never given */
    retire_altstack(a);
    return -1;
  }
  /* No allocation: the key, made at start, is one of glibc's first 32. */
  pthread_setspecific(altstack_key, a);
  return 0;
}

void signals_jumping(uintptr_t target_sp) {
  /* Asked of the kernel first (no TLS: the jump may come from a domain
   * without access to the default domain's memory): only a stack armed
   * in part can have been left so. */
  stack_t cur;
  if (raw_sigaltstack(NULL, &cur) != 0 ||
      !(cur.ss_flags & SS_AUTODISARM) || cur.ss_size >= DIPC_ALTSTACK_SIZE)
    return;
  struct altstack *a =
      altstack_key_made ? pthread_getspecific(altstack_key) : NULL;
  uintptr_t base = (uintptr_t)a + ALTSTACK_RECORD;
  uintptr_t here = (uintptr_t)__builtin_frame_address(0);
  if (!a || (uintptr_t)cur.ss_sp != base ||
      here - base >= DIPC_ALTSTACK_SIZE ||
      target_sp - base < DIPC_ALTSTACK_SIZE)
    return; /* not the loader's stack, not in a handler, or staying on it */
  /* Refused (EPERM) only when this frame lies in the part a nested
   * handler would get: then that part stays all they get. */
  stack_t ss = {.ss_sp = (void *)base,
                .ss_flags = SS_AUTODISARM,
                .ss_size = DIPC_ALTSTACK_SIZE};
  raw_sigaltstack(&ss, NULL);
}

/* The program's view of signal dispositions: crash signals always stay
 * with the loader's handler, other signals get signal_handler in front of
 * the program's handler functions; either way the program sees its own
 * actions. act is the loader's copy, read once. */
static int set_action(int sig, const struct sigaction *act,
                      struct sigaction *old) {
  if (!installed || sig <= 0 || sig >= NSIG || sig == SIGKILL || sig == SIGSTOP)
    return real_sigaction()(sig, act, old);
  if (sig == DIPC_TIMEOUT_SIGNAL) { /* the loader's (time-outs) */
    errno = EINVAL;
    return -1;
  }
  void *run = NULL;
  if (act && has_handler_function(act)) {
    run = dipc_domain_callback((void *)act->sa_handler,
                               act->sa_flags & SA_SIGINFO ? 3 : 1);
    if (!run) {
      errno = ENOMEM; /* no proxy into the calling domain */
      return -1;
    }
  }
  int crash = crash_index(sig) >= 0;
  pthread_mutex_lock(&program_action_lock);
  struct sigaction previous;
  int err = 0;
  if (!crash) {
    struct sigaction front;
    const struct sigaction *install = act;
    if (act && has_handler_function(act)) {
      front = *act;
      front.sa_sigaction = signal_handler;
      front.sa_flags |= SA_SIGINFO | SA_ONSTACK;
      install = &front;
    }
    err = real_sigaction()(sig, install, &previous);
  }
  if (err == 0) {
    if (old)
      *old = stands_in_for(sig) ? program_action[sig] : previous;
    if (act) {
      program_action[sig] = *act;
      program_run[sig] = run;
    }
  }
  pthread_mutex_unlock(&program_action_lock);
  return err;
}

/* act is read once, into a copy every decision and libc then use: the
 * handler seen as SIG_IGN by the check and as a function by libc went in
 * raw, without its domain's proxy (an attack round's second thread flipped
 * it). Under `sfi`, for instrumented callers, the copy is in the thread's
 * scratch area, the structures are the caller's to read and write, and
 * the handler, which runs from here unchecked, a function instrumented
 * code could call itself. Elsewhere the copy is this frame's. */
__attribute__((visibility("default"))) int
sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
  int checked = SFI_CHECKED();
  struct sigaction on_stack, *mine = NULL;
  if (act && checked && !(mine = sfi_copy_in("sigaction", act, sizeof *act)))
    return -1;
  if (act && !checked) {
    mine = memcpy(&on_stack, act, sizeof on_stack);
    __asm__ volatile("" : : "r"(mine) : "memory"); /* no read of act after */
  }
  if (checked) {
    if (old)
      SFI_WRITE(old, sizeof *old);
    if (mine && has_handler_function(mine))
      sfi_check_callee((const void *)mine->sa_handler);
  }
  int err = set_action(sig, mine, old);
  if (checked)
    sfi_copy_done(mine);
  return err;
}

__attribute__((visibility("default"))) sighandler_t signal(int sig,
                                                           sighandler_t fn) {
  if (SFI_CHECKED() && fn != SIG_DFL && fn != SIG_IGN && fn != SIG_ERR)
    sfi_check_callee((const void *)fn);
  struct sigaction act = {.sa_handler = fn, .sa_flags = SA_RESTART};
  struct sigaction old;
  sigemptyset(&act.sa_mask);
  if (sigaction(sig, &act, &old) != 0)
    return SIG_ERR;
  return old.sa_handler;
}

/* libc's other ways to install a handler reach its own sigaction past the
 * one above: the handler would run as the default domain, unchecked (an
 * attack installed one a byte into a function with sysv_signal). They go
 * through the one above instead. __libc_sigaction is libc's private
 * sigaction, which a domain can look up; bsd_signal and ssignal are
 * signal's and __sysv_signal sysv_signal's other names (sfi_alias.c binds
 * those, from these records of libc's functions). */
__attribute__((visibility("default"))) int
__libc_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
    __attribute__((alias("sigaction"), nothrow, leaf));

static void libc_installers(void) {
  (void)NEXT_AS(void *, "signal");
  (void)NEXT_AS(void *, "sysv_signal");
  (void)NEXT_AS(void *, "sigset");
  (void)NEXT_AS(void *, "__libc_sigaction");
}
__attribute__((used)) static void (*const records_of_installers)(void) =
    libc_installers;

/* System V's: one-shot, not blocked in its own handler. */
__attribute__((visibility("default"))) sighandler_t sysv_signal(int sig,
                                                                sighandler_t fn) {
  if (SFI_CHECKED() && fn != SIG_DFL && fn != SIG_IGN && fn != SIG_ERR)
    sfi_check_callee((const void *)fn);
  struct sigaction act = {.sa_handler = fn,
                          .sa_flags = SA_RESETHAND | SA_NODEFER};
  struct sigaction old;
  sigemptyset(&act.sa_mask);
  if (sigaction(sig, &act, &old) != 0)
    return SIG_ERR;
  return old.sa_handler;
}

/* SIG_HOLD blocks sig; any other disposition is installed and unblocks it.
 * Returns SIG_HOLD if sig was blocked, else the previous disposition. */
__attribute__((visibility("default"))) sighandler_t sigset(int sig,
                                                           sighandler_t fn) {
  if (SFI_CHECKED() && fn != SIG_DFL && fn != SIG_IGN && fn != SIG_ERR &&
      fn != SIG_HOLD)
    sfi_check_callee((const void *)fn);
  sigset_t one, was;
  if (sigemptyset(&one) != 0 || sigaddset(&one, sig) != 0)
    return SIG_ERR;
  struct sigaction old;
  if (fn == SIG_HOLD) {
    if (sigaction(sig, NULL, &old) != 0 ||
        pthread_sigmask(SIG_BLOCK, &one, &was) != 0)
      return SIG_ERR;
  } else {
    struct sigaction act = {.sa_handler = fn};
    sigemptyset(&act.sa_mask);
    if (sigaction(sig, &act, &old) != 0 ||
        pthread_sigmask(SIG_UNBLOCK, &one, &was) != 0)
      return SIG_ERR;
  }
  return sigismember(&was, sig) ? SIG_HOLD : old.sa_handler;
}
