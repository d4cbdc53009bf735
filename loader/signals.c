/* signals.c - crash signals go to dIPC first; what is not a callee crash
 * goes to the program's handler, or ends the process exactly as it would
 * without dIPC (same signal, same status). The program's sigaction() and
 * signal() calls for these signals are recorded here instead of replacing
 * the loader's handler. */
#define _GNU_SOURCE
#include "signals.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
enum { NUM_CRASH_SIGNALS = sizeof crash_signals / sizeof crash_signals[0] };

static fault_recovery_fn recover_fault;
static fault_report_fn report_fault;
static int installed;
static struct sigaction program_action[NUM_CRASH_SIGNALS];
static pthread_mutex_t program_action_lock = PTHREAD_MUTEX_INITIALIZER;

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);

static sigaction_fn real_sigaction(void) {
  static sigaction_fn real;
  if (!real)
    real = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
  return real;
}

static int crash_index(int sig) {
  for (int i = 0; i < NUM_CRASH_SIGNALS; ++i)
    if (crash_signals[i] == sig)
      return i;
  return -1;
}

/* Not dIPC's crash: behave as the program asked, or as the default. The
 * recovery gate left the default domain's image installed, so the
 * program's handler can use the thread's stack as well as its TLS. */
static void forward_to_program(int sig, siginfo_t *info, void *uc) {
  struct sigaction act = program_action[crash_index(sig)];
  if (act.sa_flags & SA_SIGINFO) {
    if (act.sa_flags & SA_RESETHAND)
      program_action[crash_index(sig)].sa_handler = SIG_DFL;
    act.sa_sigaction(sig, info, uc);
    return;
  }
  if (act.sa_handler == SIG_IGN)
    return;
  if (act.sa_handler != SIG_DFL) {
    if (act.sa_flags & SA_RESETHAND)
      program_action[crash_index(sig)].sa_handler = SIG_DFL;
    act.sa_handler(sig);
    return;
  }
  /* Default action: uninstall ourselves and let the faulting instruction
   * run again (or re-raise a sent signal), so the kernel reports the same
   * signal and core status as without dIPC. */
  if (report_fault)
    report_fault(sig, info);
  struct sigaction dfl = {.sa_handler = SIG_DFL};
  sigemptyset(&dfl.sa_mask);
  real_sigaction()(sig, &dfl, NULL);
  if (info->si_code <= 0)
    raise(sig);
}

static void crash_handler(int sig, siginfo_t *info, void *uc) {
  if (recover_fault && recover_fault(uc))
    return; /* resumes the caller with DIPC_EFAULT */
  forward_to_program(sig, info, uc);
}

int signals_install(fault_recovery_fn recover, fault_report_fn report) {
  recover_fault = recover;
  report_fault = report;
  struct sigaction act = {.sa_sigaction = crash_handler,
                          .sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER};
  sigemptyset(&act.sa_mask);
  for (int i = 0; i < NUM_CRASH_SIGNALS; ++i) {
    if (real_sigaction()(crash_signals[i], &act, &program_action[i]) != 0) {
      perror("dipc-loader: sigaction");
      return -1;
    }
  }
  installed = 1;
  return signals_setup_thread();
}

static pthread_key_t altstack_key;
static pthread_once_t altstack_once = PTHREAD_ONCE_INIT;

static void free_altstack(void *stack) {
  stack_t off = {.ss_flags = SS_DISABLE};
  sigaltstack(&off, NULL);
  munmap(stack, SIGSTKSZ * 4);
}

static void make_altstack_key(void) {
  pthread_key_create(&altstack_key, free_altstack);
}

int signals_setup_thread(void) {
  pthread_once(&altstack_once, make_altstack_key);
  if (pthread_getspecific(altstack_key))
    return 0;
  size_t size = SIGSTKSZ * 4;
  void *stack = mmap(NULL, size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (stack == MAP_FAILED) {
    perror("dipc-loader: alternate signal stack");
    return -1;
  }
  stack_t ss = {.ss_sp = stack, .ss_size = size};
  if (sigaltstack(&ss, NULL) != 0) {
    perror("dipc-loader: sigaltstack");
    munmap(stack, size);
    return -1;
  }
  pthread_setspecific(altstack_key, stack);
  return 0;
}

/* The program's view of crash-signal dispositions. */
__attribute__((visibility("default"))) int
sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
  int i = crash_index(sig);
  if (!installed || i < 0)
    return real_sigaction()(sig, act, old);
  pthread_mutex_lock(&program_action_lock);
  if (old)
    *old = program_action[i];
  if (act)
    program_action[i] = *act;
  pthread_mutex_unlock(&program_action_lock);
  return 0;
}

__attribute__((visibility("default"))) sighandler_t signal(int sig,
                                                           sighandler_t fn) {
  struct sigaction act = {.sa_handler = fn, .sa_flags = SA_RESTART};
  struct sigaction old;
  sigemptyset(&act.sa_mask);
  if (sigaction(sig, &act, &old) != 0)
    return SIG_ERR;
  return old.sa_handler;
}
