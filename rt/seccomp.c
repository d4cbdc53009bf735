/* seccomp.c - the kernel boundary of the mpk backend. Protection keys
 * restrict data access only: a domain can issue any system call, from its
 * own code or by jumping to anyone's syscall instruction. This filter,
 * installed once at start for every thread (after the loader checked the
 * code already loaded, loader/seal.c), keeps the calls that would undo
 * the isolation for the runtime:
 *
 * - pkey_mprotect, pkey_alloc, pkey_free, arch_prctl(ARCH_SET_FS/GS): only
 *   from dipc_sys_raw (sys.S) with the cookie in r9, else EPERM;
 * - mmap and mprotect with PROT_EXEC: the same, else trapped (SIGSYS) and
 *   done by the runtime after checking the code (exec.c);
 * - prctl(PR_SET_MM), which can point /proc/self/environ at any memory;
 * - personality(READ_IMPLIES_EXEC) and shmat(SHM_EXEC), which make memory
 *   executable behind PROT_EXEC's back, and shmat(SHM_REMAP): EPERM;
 * - munmap, mremap, brk, shmdt, MAP_FIXED mmap and madvise that drops
 *   contents (but MADV_DONTNEED, mmcall.c), which let a domain swap
 *   another's memory (its stack, its return addresses) for a file of its
 *   own: trapped and made by the runtime for trusted domains only;
 * - mprotect and other madvise of the runtime's window (layout.h: tables,
 *   thread states, runtime memory, proxies): EPERM;
 * - process_vm_readv/writev and ptrace (kernel accesses that ignore
 *   protection keys), remap_file_pages, userfaultfd (it could fill a
 *   dropped code page), io_uring (its madvise and reads bypass this
 *   filter), mseal, process_madvise: EPERM;
 * - seccomp filters with a listener, which would see the cookie: EPERM;
 * - signals sent with a siginfo of the sender's making (rt_sigqueueinfo,
 *   rt_tgsigqueueinfo, pidfd_send_signal with one): a forged SIGSYS
 *   would pass for one of this filter's traps (exec.c): EPERM;
 * - execve/execveat: EPERM, since a new program would inherit this filter
 *   without the runtime that answers its traps;
 * - perf_event_open and bpf: a breakpoint or sample on the runtime's own
 *   syscall instruction records the cookie in r9 (user registers are
 *   sampled whatever the signal mask), and another domain's registers and
 *   stack: EPERM;
 * - modify_ldt, whose selectors would set a thread's fs or gs base past
 *   arch_prctl's check, and rseq registrations, whose abort address the
 *   kernel jumps to from whatever code runs in the critical section they
 *   name: EPERM. Threads run without rseq (thread.c, drop_rseq); glibc's
 *   own registration must be off (glibc.pthread.rseq=0, dipc-run), or it
 *   would stop each new thread when the filter refuses it;
 * - 32-bit (int 0x80) and x32 system calls: refused, their numbers differ.
 */
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/userfaultfd.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

#ifndef SECCOMP_FILTER_FLAG_SPEC_ALLOW
#define SECCOMP_FILTER_FLAG_SPEC_ALLOW (1UL << 2)
#endif
#ifndef SYS_mseal
#define SYS_mseal 462
#endif
#ifndef SHM_EXEC
#define SHM_EXEC 0100000
#endif

DIPC_HIDDEN extern const char dipc_syscall_site[];

struct program {
  struct sock_filter f[256];
  unsigned n;
};

static void emit(struct program *p, struct sock_filter s) {
  DIPC_CHECK(p->n < sizeof p->f / sizeof p->f[0], "seccomp program size");
  p->f[p->n++] = s;
}

#define STMT(...) ((struct sock_filter)BPF_STMT(__VA_ARGS__))
#define JUMP(...) ((struct sock_filter)BPF_JUMP(__VA_ARGS__))
#define LD(field) STMT(BPF_LD | BPF_W | BPF_ABS, (field))
#define RET(value) STMT(BPF_RET | BPF_K, (value))
#define JEQ(k, t, f) JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (t), (f))
#define JGE(k, t, f) JUMP(BPF_JMP | BPF_JGE | BPF_K, (k), (t), (f))
#define JGT(k, t, f) JUMP(BPF_JMP | BPF_JGT | BPF_K, (k), (t), (f))
#define JSET(k, t, f) JUMP(BPF_JMP | BPF_JSET | BPF_K, (k), (t), (f))
#define NR offsetof(struct seccomp_data, nr)
#define ARG(i) offsetof(struct seccomp_data, args[i]) /* low 32 bits */
#define ERRNO(e) (SECCOMP_RET_ERRNO | (e))
#define TRAP (SECCOMP_RET_TRAP | DIPC_SECCOMP_TRAP_DATA)

/* Jumps to an EPERM return if [arg a, arg a + arg len) overlaps the
 * runtime's window (layout.h; below 4 GiB); else falls through with the
 * accumulator = nr again. The kernel refuses ranges that wrap. */
static void window(struct program *p, unsigned a, unsigned len) {
  emit(p, LD(ARG(a) + 4));
  emit(p, JEQ(0, 0, 10)); /* above 4 GiB: out */
  emit(p, LD(ARG(a)));
  emit(p, JGE(RT_WINDOW_HI, 8, 0));     /* at or above the window: out */
  emit(p, STMT(BPF_MISC | BPF_TAX, 0)); /* X = start */
  emit(p, LD(ARG(len) + 4));
  emit(p, JEQ(0, 0, 4)); /* 4 GiB or more: overlaps */
  emit(p, LD(ARG(len)));
  emit(p, STMT(BPF_ALU | BPF_ADD | BPF_X, 0));       /* A = end, mod 2^32 */
  emit(p, JUMP(BPF_JMP | BPF_JGE | BPF_X, 0, 0, 1)); /* end < start: carry */
  emit(p, JGT(RT_WINDOW_LO, 0, 1)); /* end above the window's start */
  emit(p, RET(ERRNO(EPERM)));
  emit(p, LD(NR));
}
enum { WINDOW = 13 }; /* instructions */

/* Accumulator = nr throughout: each block returns on every path. */
static void deny(struct program *p, unsigned nr) {
  emit(p, JEQ(nr, 0, 1));
  emit(p, RET(ERRNO(EPERM)));
}

/* if (nr == `nr`) return (arg `arg` & `bits`) ? `yes` : ALLOW; */
static void when_bits(struct program *p, unsigned nr, unsigned arg,
                      unsigned bits, unsigned yes) {
  emit(p, JEQ(nr, 0, 4));
  emit(p, LD(ARG(arg)));
  emit(p, JSET(bits, 0, 1));
  emit(p, RET(yes));
  emit(p, RET(SECCOMP_RET_ALLOW));
}

/* if (nr == `nr`) return arg `arg` == `value` ? EPERM : ALLOW; */
static void when_equal(struct program *p, unsigned nr, unsigned arg,
                       unsigned value) {
  emit(p, JEQ(nr, 0, 4));
  emit(p, LD(ARG(arg)));
  emit(p, JEQ(value, 0, 1));
  emit(p, RET(ERRNO(EPERM)));
  emit(p, RET(SECCOMP_RET_ALLOW));
}

static void build(struct program *p, uint64_t cookie) {
  uint64_t site = (uint64_t)dipc_syscall_site;
  emit(p, LD(offsetof(struct seccomp_data, arch)));
  emit(p, JEQ(AUDIT_ARCH_X86_64, 1, 0));
  emit(p, RET(SECCOMP_RET_KILL_PROCESS));
  /* The runtime's own calls: its syscall instruction and its cookie. */
  const unsigned ip = offsetof(struct seccomp_data, instruction_pointer);
  emit(p, LD(ip));
  emit(p, JEQ((uint32_t)site, 0, 7));
  emit(p, LD(ip + 4));
  emit(p, JEQ((uint32_t)(site >> 32), 0, 5));
  emit(p, LD(ARG(5)));
  emit(p, JEQ((uint32_t)cookie, 0, 3));
  emit(p, LD(ARG(5) + 4));
  emit(p, JEQ((uint32_t)(cookie >> 32), 0, 1));
  emit(p, RET(SECCOMP_RET_ALLOW));
  emit(p, LD(NR));
  emit(p, JGE(0x40000000, 0, 1)); /* x32 */
  emit(p, RET(ERRNO(ENOSYS)));
  static const unsigned denied[] = {
      SYS_pkey_mprotect,    SYS_pkey_alloc,        SYS_pkey_free,
      SYS_process_vm_readv, SYS_process_vm_writev, SYS_ptrace,
      SYS_remap_file_pages, SYS_userfaultfd,       SYS_execve,
      SYS_execveat,         SYS_io_uring_setup,    SYS_mseal,
      SYS_process_madvise,  SYS_rt_sigqueueinfo,   SYS_rt_tgsigqueueinfo,
      SYS_perf_event_open,  SYS_bpf,               SYS_modify_ldt};
  for (size_t i = 0; i < sizeof denied / sizeof denied[0]; ++i)
    deny(p, denied[i]);
  /* mmap: PROT_EXEC or MAP_FIXED (which replaces what is there) is
   * made by the runtime, checked (exec.c, mmcall.c). */
  emit(p, JEQ(SYS_mmap, 0, 6));
  emit(p, LD(ARG(2)));
  emit(p, JSET(PROT_EXEC, 2, 0));
  emit(p, LD(ARG(3)));
  emit(p, JSET(MAP_FIXED, 0, 1));
  emit(p, RET(TRAP));
  emit(p, RET(SECCOMP_RET_ALLOW));
  /* mprotect: PROT_EXEC the same; otherwise off the window. */
  emit(p, JEQ(SYS_mprotect, 0, 4 + WINDOW));
  emit(p, LD(ARG(2)));
  emit(p, JSET(PROT_EXEC, 0, 1));
  emit(p, RET(TRAP));
  window(p, 0, 1);
  emit(p, RET(SECCOMP_RET_ALLOW));
  /* Calls that drop or move memory: made by the runtime, checked. */
  static const unsigned dropping[] = {SYS_munmap, SYS_mremap, SYS_brk,
                                      SYS_shmdt};
  for (size_t i = 0; i < sizeof dropping / sizeof dropping[0]; ++i) {
    emit(p, JEQ(dropping[i], 0, 1));
    emit(p, RET(TRAP));
  }
  /* madvise: advice that keeps contents, off the window; the rest made by
   * the runtime, checked. */
  unsigned keeping[32], n = 0;
  for (unsigned advice = 0; advice < 32; ++advice)
    if (!dipc_madvise_trapped((int)advice))
      keeping[n++] = advice;
  emit(p, JEQ(SYS_madvise, 0, 1 + n + 1 + 1 + WINDOW + 1));
  emit(p, LD(ARG(2)));
  for (unsigned i = 0; i < n; ++i)
    emit(p, JEQ(keeping[i], n - i, 0));
  emit(p, RET(TRAP));
  emit(p, LD(NR));
  window(p, 0, 1);
  emit(p, RET(SECCOMP_RET_ALLOW));
  when_bits(p, SYS_shmat, 2, SHM_EXEC | SHM_REMAP, ERRNO(EPERM));
  /* rseq: unregistering only (thread.c, drop_rseq). */
  emit(p, JEQ(SYS_rseq, 0, 4));
  emit(p, LD(ARG(2)));
  emit(p, JSET(DIPC_RSEQ_FLAG_UNREGISTER, 1, 0));
  emit(p, RET(ERRNO(EPERM)));
  emit(p, RET(SECCOMP_RET_ALLOW));
  when_equal(p, SYS_ioctl, 1, USERFAULTFD_IOC_NEW);
  /* A filter of the program's with a listener would see the cookie in the
   * arguments of the runtime's calls (SECCOMP_RET_USER_NOTIF wins over
   * this filter's ALLOW). */
  when_bits(p, SYS_seccomp, 1, SECCOMP_FILTER_FLAG_NEW_LISTENER, ERRNO(EPERM));
  /* prctl(PR_SET_MM) could point /proc/self/environ or cmdline, which the
   * kernel reads whatever the key, at any memory. */
  when_equal(p, SYS_prctl, 0, PR_SET_MM);
  /* pidfd_send_signal with a siginfo of the caller's making (NULL: a
   * plain kill). */
  emit(p, JEQ(SYS_pidfd_send_signal, 0, 6));
  emit(p, LD(ARG(2)));
  emit(p, JEQ(0, 0, 2));
  emit(p, LD(ARG(2) + 4));
  emit(p, JEQ(0, 1, 0));
  emit(p, RET(ERRNO(EPERM)));
  emit(p, RET(SECCOMP_RET_ALLOW));
  /* arch_prctl: ARCH_SET_FS and ARCH_SET_GS. */
  emit(p, JEQ(SYS_arch_prctl, 0, 5));
  emit(p, LD(ARG(0)));
  emit(p, JEQ(ARCH_SET_FS, 1, 0));
  emit(p, JEQ(ARCH_SET_GS, 0, 1));
  emit(p, RET(ERRNO(EPERM)));
  emit(p, RET(SECCOMP_RET_ALLOW));
  /* personality: queries (0xffffffff) and personas without
   * READ_IMPLIES_EXEC only. */
  emit(p, JEQ(SYS_personality, 0, 5));
  emit(p, LD(ARG(0)));
  emit(p, JEQ(0xffffffff, 2, 0));
  emit(p, JSET(READ_IMPLIES_EXEC, 0, 1));
  emit(p, RET(ERRNO(EPERM)));
  emit(p, RET(SECCOMP_RET_ALLOW));
  emit(p, RET(SECCOMP_RET_ALLOW));
}

/* The cookie only dipc_sys_raw (sys.S) passes: in runtime-key memory. */
uint64_t dipc_sys_make_cookie(void) {
  uint64_t *slot = dipc_alloc_runtime(RT_PAGE), cookie = 0;
  /* Page-aligned: it is the offset of the window's anonymous mmaps. */
  while ((cookie & ~(RT_PAGE - 1)) == 0)
    DIPC_CHECK(getrandom(&cookie, sizeof cookie, 0) == sizeof cookie,
               "no random cookie for the system call filter");
  cookie &= ~(RT_PAGE - 1);
  *slot = cookie;
  dipc_sys_cookie = slot;
  return cookie;
}

void dipc_seccomp_install(void) {
  if (dipc_glibc_rseq_on()) {
    fputs("dipc: the mpk backend needs glibc's rseq registration off "
          "(GLIBC_TUNABLES=glibc.pthread.rseq=0, as dipc-run sets): "
          "refused\n",
          stderr);
    _exit(DIPC_EXIT_REFUSED);
  }
  /* Memory mapped readable at start would be executable too. */
  int persona = personality(0xffffffff);
  DIPC_CHECK(persona != -1 && (!(persona & READ_IMPLIES_EXEC) ||
                               personality(persona & ~READ_IMPLIES_EXEC) != -1),
             "cannot clear READ_IMPLIES_EXEC");
  struct program p = {.n = 0};
  build(&p, *dipc_sys_cookie);
  struct sock_fprog prog = {(unsigned short)p.n, p.f};
  DIPC_CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0,
             "cannot set no_new_privs for the system call filter");
  long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
                   SECCOMP_FILTER_FLAG_TSYNC | SECCOMP_FILTER_FLAG_SPEC_ALLOW,
                   &prog);
  explicit_bzero(&p, sizeof p); /* the cookie */
  DIPC_CHECK(r == 0, "cannot install the system call filter (%ld)", r);
}
