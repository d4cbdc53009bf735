/* rt-test.h - helpers of the runtime unit tests: assertions, domain code
 * placed on pages of its own, and running an attack in a child process
 * that reports the signal it died of. */
#ifndef RT_TEST_H
#define RT_TEST_H

#define _GNU_SOURCE
#include <dipc/rt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif
int *__dipc_errno_location(void);
#ifdef __cplusplus
}
#endif

#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond)) {                                                             \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                   \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)
#define EXPECT_EQ(a, b)                                                        \
  do {                                                                         \
    long long a_ = (long long)(a), b_ = (long long)(b);                        \
    if (a_ != b_) {                                                            \
      printf("FAIL %s:%d: %s == %lld, expected %s == %lld\n", __FILE__,        \
             __LINE__, #a, a_, #b, b_);                                        \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

/* Functions of a test domain: a section of their own, page aligned, which
 * move_section_to hands to the domain with dom_remap. */
#define DOMAIN_CODE(sec)                                                       \
  __attribute__((section(sec), noinline, used, aligned(4096)))
#define move_section_to(dom, sec)                                              \
  do {                                                                         \
    extern char __start_##sec[], __stop_##sec[];                               \
    uintptr_t lo_ = (uintptr_t)__start_##sec & ~4095UL;                        \
    uintptr_t hi_ = ((uintptr_t)__stop_##sec + 4095) & ~4095UL;                \
    EXPECT_EQ(dom_remap((dom), dom_default(), (void *)lo_, hi_ - lo_), 0);     \
  } while (0)

static inline struct dipc_signature sig(int ints, int vecs, int int_res,
                                        int vec_res, int stack) {
  struct dipc_signature s = {(uint8_t)ints, (uint8_t)vecs, (uint8_t)int_res,
                             (uint8_t)vec_res, (uint16_t)stack, 0, 0};
  return s;
}

/* A proxy to fn in dom, registered with callee policy `reg_policy` and
 * requested with `req_policy`, that domain `caller` may call (a call grant
 * to the proxy's domain, which every proxy checks). */
static inline void *proxy_for(dom_t caller, dom_t dom, void *fn,
                              struct dipc_signature s, dipc_policy_t reg_policy,
                              dipc_policy_t req_policy) {
  struct dipc_entry_desc d;
  d.address = fn;
  d.signature = s;
  d.policy = reg_policy;
  entry_t e = entry_register(dom, 1, &d);
  EXPECT(e >= 0);
  d.policy = req_policy;
  dom_t p = entry_request(e, 1, &d);
  EXPECT(p >= 0);
  EXPECT(d.address != fn);
  EXPECT(grant_create(caller, p) >= 0);
  return d.address;
}

/* The same, called from the default domain. */
static inline void *proxy_to(dom_t dom, void *fn, struct dipc_signature s,
                             dipc_policy_t reg_policy,
                             dipc_policy_t req_policy) {
  return proxy_for(dom_default(), dom, fn, s, reg_policy, req_policy);
}

/* Child side of an attack: report a SIGSEGV's cause and key, then exit. */
static void report_fault(int sig, siginfo_t *si, void *uc) {
  (void)uc;
  char buf[128];
  int n = snprintf(buf, sizeof buf, "signal %d code %s pkey %d\n", sig,
                   si->si_code == SEGV_PKUERR ? "SEGV_PKUERR" : "other",
                   si->si_code == SEGV_PKUERR ? (int)si->si_pkey : -1);
  write(1, buf, n);
  _exit(0);
}

/* Handle SIGSEGV with fn on a key-0 alternate stack (Linux runs handlers
 * with only key 0 accessible; a callee runs on a stack under its domain's
 * key). */
static inline void on_sigsegv(void (*fn)(int, siginfo_t *, void *), int flags) {
  static char altstack[65536];
  stack_t ss;
  struct sigaction sa;
  memset(&ss, 0, sizeof ss);
  memset(&sa, 0, sizeof sa);
  ss.ss_sp = altstack;
  ss.ss_size = sizeof altstack;
  sa.sa_sigaction = fn;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | flags;
  EXPECT_EQ(sigaltstack(&ss, NULL), 0);
  EXPECT_EQ(sigaction(SIGSEGV, &sa, NULL), 0);
}

/* Run attack() in a child with a SIGSEGV reporter on a key-0 alternate
 * stack; the child prints "survived" if the attack did not fault. */
static inline void in_child(void (*attack)(void *), void *arg) {
  fflush(stdout);
  pid_t pid = fork();
  EXPECT(pid >= 0);
  if (pid == 0) {
    on_sigsegv(report_fault, 0);
    attack(arg);
    printf("survived\n");
    fflush(stdout);
    _exit(0);
  }
  int status;
  EXPECT(waitpid(pid, &status, 0) == pid);
  EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* What the loader's handler does: hand a fault to the runtime; die if it
 * is not a callee fault. Runs on a key-0 alternate stack. */
static void recover_or_die(int sig, siginfo_t *si, void *uc) {
  (void)si;
  if (!__dipc_recover_from_fault(uc)) {
    signal(sig, SIG_DFL);
    return;
  }
}

static inline void install_recovery_handler(void) {
  on_sigsegv(recover_or_die, SA_NODEFER);
}

#endif
