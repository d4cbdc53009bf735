/* sfi_syscalls.c - under `sfi`, the system calls instrumented code reaches
 * through libc that would undo the isolation. Under `mpk` the seccomp
 * filter (rt/seccomp.c) and the keys themselves stop them; under `sfi`
 * the kernel checks nothing of a domain's, so these stand in front of
 * libc's wrappers (as the other interceptors, sfi_intercept.h) for calls
 * from -fdipc-sfi code:
 *
 *  - memory management (mmap, munmap, mprotect, mremap, madvise, shmat): only over pages the running domain may write
 *    (__dipc_sfi_may_replace: never the runtime's window, the tag shadow
 *    or pages of a domain it may not write, which unmapped and mapped
 *    again would be blank rights or blank memory), never next to the
 *    runtime's memory (a page no domain maps lies between: libc writing
 *    on past a pointer's first byte faults there, __dipc_sfi_next_to_runtime),
 *    never unmapping or mapping over a domain heap (the allocator writes
 *    its region unchecked: a hole another domain mapped would be written),
 *    and never executable: new code would
 *    run without the checks;
 *  - what changes the thread's or process's state under the runtime:
 *    prctl(PR_SET_MM), arch_prctl (but its GETs), personality(READ_IMPLIES_EXEC), brk,
 *    ptrace and process_vm_writev/readv (the kernel's own copies),
 *    sigaltstack (the kernel writes signal frames there), and
 *    ioctl's pointer (checked for the size its request says), and
 *    syscall(2), which would reach all of these (arch_prctl, whose gs base
 *    leads to the running domain, included): EPERM. The protection-key
 *    calls are pkeys.c's.
 *
 * Calls from libc itself, libdipc and the loader (and every call under
 * the other backends) go straight through. */
#define _GNU_SOURCE
#include "../rt/say.h"
#include "sfi_intercept.h"

#include <dipc/abi.h>
#include <dipc/rt.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <asm/prctl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <termios.h>
#include <unistd.h>


/* A refused call: the caller sees EPERM, and the reason goes to stderr,
 * since a program seldom expects it. */
long sfi_refuse(const char *call) {
  dipc_say("dipc: sfi: %s refused to the running domain (it would undo "
           "the isolation)\n",
           call);
  errno = EPERM;
  return -1;
}

_Noreturn void sfi_refuse_fault(const char *call) {
  sfi_refuse(call);
  __dipc_sfi_check(DIPC_SFI_TRAP_ADDR, 1, 0); /* refused: never returns */
  __builtin_unreachable();
}

static void *refuse_map(const char *call) {
  sfi_refuse(call);
  return MAP_FAILED;
}

/* Whether [addr, + len) touches the domains' heap regions (dipc/abi.h):
 * the loader's allocator's, which writes them unchecked. A hole a domain
 * made in its own region (munmap, mremap away) could be mapped again by
 * another domain, whose memory the allocator would then write. */
static int in_heaps(const void *addr, size_t len) {
  uintptr_t lo = (uintptr_t)addr;
  return len && lo < DIPC_HEAP_END && lo + len > DIPC_HEAP_ADDR;
}

/* Pages the running domain may write (and so re-protect or advise on). */
static int writable_pages(const void *addr, size_t len) {
  return __dipc_sfi_may_replace((uintptr_t)addr, len);
}

/* ... and unmap, or map over: not in the heap regions. */
static int replaceable(const void *addr, size_t len) {
  return !in_heaps(addr, len) && writable_pages(addr, len);
}



typedef void *(*mmap_fn)(void *, size_t, int, int, int, off_t);

/* The reason a domain's mmap is refused, or NULL. */
static const char *mmap_refusal(void *addr, size_t len, int prot, int flags) {
  if (prot & PROT_EXEC)
    return "executable mmap";
  if ((flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) && !replaceable(addr, len))
    return in_heaps(addr, len) ? "mmap over a domain heap (the allocator's)"
                               : "mmap over memory the domain may not write";
  return NULL;
}

/* A mapping the kernel placed (at a hint, say) right next to the runtime's
 * memory (__dipc_sfi_next_to_runtime), or in the heap regions (where a
 * domain made later would find it in its heap), is taken back. */
static void *placed(void *p, size_t len) {
  len = (len + 4095) & ~(size_t)4095;
  if (p == MAP_FAILED ||
      (!__dipc_sfi_next_to_runtime((uintptr_t)p, len) && !in_heaps(p, len)))
    return p;
  NEXT_AS(int (*)(void *, size_t), "munmap")(p, len);
  return refuse_map(in_heaps(p, len) ? "mmap in the domain heaps' regions"
                                     : "mmap next to the runtime's memory");
}

SFI_EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd,
                      off_t off) {
  if (!SFI_CHECKED())
    return NEXT_AS(mmap_fn, "mmap")(addr, len, prot, flags, fd, off);
  const char *no = mmap_refusal(addr, len, prot, flags);
  if (no)
    return refuse_map(no);
  return placed(NEXT_AS(mmap_fn, "mmap")(addr, len, prot, flags, fd, off),
                len);
}

SFI_EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd,
                        off_t off) {
  if (!SFI_CHECKED())
    return NEXT_AS(mmap_fn, "mmap64")(addr, len, prot, flags, fd, off);
  const char *no = mmap_refusal(addr, len, prot, flags);
  if (no)
    return refuse_map(no);
  return placed(NEXT_AS(mmap_fn, "mmap64")(addr, len, prot, flags, fd, off),
                len);
}

/* The runtime's result (-errno) as libc's. */
static long as_libc(long r) {
  if (r < 0 && r > -4096) {
    errno = (int)-r;
    return -1;
  }
  return r;
}

/* Checked, the runtime makes the call: the pages' tags follow (rt/sfi.c). */
static int checked_munmap(void *addr, size_t len) {
  if (!replaceable(addr, len))
    return (int)sfi_refuse(in_heaps(addr, len)
                               ? "munmap of a domain heap (the allocator's)"
                               : "munmap of memory the domain may not write");
  return (int)as_libc(__dipc_sfi_munmap(addr, len));
}

typedef int (*munmap_fn)(void *, size_t);
SFI_EXPORT int munmap(void *addr, size_t len) {
  if (!SFI_CHECKED())
    return NEXT_AS(munmap_fn, "munmap")(addr, len);
  return checked_munmap(addr, len);
}

typedef int (*mprotect_fn)(void *, size_t, int);
SFI_EXPORT int mprotect(void *addr, size_t len, int prot) {
  if (SFI_CHECKED() && (prot & PROT_EXEC))
    return (int)sfi_refuse("mprotect with PROT_EXEC");
  if (SFI_CHECKED() && !writable_pages(addr, len))
    return (int)sfi_refuse("mprotect of memory the domain may not write");
  return NEXT_AS(mprotect_fn, "mprotect")(addr, len, prot);
}

typedef int (*madvise_fn)(void *, size_t, int);
SFI_EXPORT int madvise(void *addr, size_t len, int advice) {
  if (SFI_CHECKED() && !writable_pages(addr, len))
    return (int)sfi_refuse("madvise of memory the domain may not write");
  return NEXT_AS(madvise_fn, "madvise")(addr, len, advice);
}

/* From instrumented code only a shrink in place, which is a munmap of the
 * tail: pages mremap moves, grows by or maps again (an old size of 0,
 * MREMAP_DONTUNMAP) would need tags the runtime cannot give them soundly
 * while other threads map and read (a shared mapping's new pages are its
 * object's, which another mapping may hold under vault's tag: attack
 * rounds read vault's page through a duplicate, a grown shared page and
 * races on both; test/e2e/attack-sfi-unmapped-tag.c). Until this stop
 * such pages were tagged 0, which the domain could not use anyway. */
typedef void *(*mremap_fn)(void *, size_t, size_t, int, ...);
SFI_EXPORT void *mremap(void *old, size_t old_len, size_t new_len, int flags,
                        ...) {
  void *new_addr = NULL;
  if (flags & MREMAP_FIXED) {
    va_list ap;
    va_start(ap, flags);
    new_addr = va_arg(ap, void *);
    va_end(ap);
  }
  if (!SFI_CHECKED())
    return NEXT_AS(mremap_fn, "mremap")(old, old_len, new_len, flags,
                                        new_addr);
  uintptr_t at = (uintptr_t)old, keep = (new_len + 4095) & ~(size_t)4095;
  if (flags & ~MREMAP_MAYMOVE || new_len == 0 || new_len > old_len)
    return refuse_map("mremap that moves, grows or maps memory again");
  if (at & 4095) {
    errno = EINVAL;
    return MAP_FAILED;
  }
  if (keep >= old_len)
    return old; /* the same pages */
  if (checked_munmap((void *)(at + keep), old_len - keep) != 0)
    return MAP_FAILED;
  return old;
}

typedef void *(*shmat_fn)(int, const void *, int);
SFI_EXPORT void *shmat(int id, const void *addr, int flags) {
  if (!SFI_CHECKED())
    return NEXT_AS(shmat_fn, "shmat")(id, addr, flags);
  if (flags & (SHM_EXEC | SHM_REMAP))
    return refuse_map("shmat with SHM_EXEC or SHM_REMAP");
  void *p = NEXT_AS(shmat_fn, "shmat")(id, addr, flags);
  if (p == MAP_FAILED)
    return p;
  /* Where it landed, as for mmap (placed); a size that cannot be read
   * (the segment removed meanwhile) is not let through. A segment in the
   * heap regions took the heap of a domain made later (its dom_create
   * failed: attack round 25). */
  struct shmid_ds ds;
  const char *no = NULL;
  if (shmctl(id, IPC_STAT, &ds) != 0)
    no = "shmat of a segment whose size cannot be read";
  else if (__dipc_sfi_next_to_runtime((uintptr_t)p, ds.shm_segsz))
    no = "shmat next to the runtime's memory";
  else if (in_heaps(p, ds.shm_segsz))
    no = "shmat in the domain heaps' regions";
  if (no) {
    shmdt(p);
    return refuse_map(no);
  }
  return p;
}

/* prctl's options open to instrumented code: those that take no pointer,
 * and these whose memory is checked here (the kernel reads and writes it
 * with no check: an attack round's PR_SET_NAME read vault's secret, and
 * PR_GET_NAME wrote the rights matrix). Any other is refused: PR_SET_MM
 * (it can point /proc/self/environ anywhere), PR_SET_SECCOMP, the
 * syscall user dispatch's selector, PR_SET_VMA's name, and options this
 * table does not know. */
static int prctl_open(int option, unsigned long a2) {
  switch (option) {
  case PR_SET_NAME:
    sfi_read_string((const char *)a2, 16); /* the kernel reads up to 16 */
    return 1;
  case PR_GET_NAME:
    sfi_check(a2, 16, 1);
    return 1;
  case PR_GET_PDEATHSIG:
  case PR_GET_CHILD_SUBREAPER:
  case PR_GET_ENDIAN:
  case PR_GET_FPEMU:
  case PR_GET_FPEXC:
  case PR_GET_UNALIGN:
    sfi_check(a2, sizeof(int), 1);
    return 1;
  case PR_GET_TID_ADDRESS:
    sfi_check(a2, sizeof(void *), 1);
    return 1;
  case PR_SET_PDEATHSIG:
  case PR_GET_DUMPABLE:
  case PR_SET_DUMPABLE:
  case PR_GET_KEEPCAPS:
  case PR_SET_KEEPCAPS:
  case PR_GET_TIMERSLACK:
  case PR_SET_TIMERSLACK:
  case PR_GET_NO_NEW_PRIVS:
  case PR_SET_NO_NEW_PRIVS:
  case PR_SET_CHILD_SUBREAPER:
  case PR_GET_THP_DISABLE:
  case PR_SET_THP_DISABLE:
  case PR_CAPBSET_READ:
  case PR_GET_SECUREBITS:
  case PR_MCE_KILL_GET:
  case PR_GET_TIMING:
  case PR_GET_SPECULATION_CTRL:
  case PR_SET_PTRACER:
    return 1;
  default:
    return 0;
  }
}

typedef int (*prctl_fn)(int, unsigned long, unsigned long, unsigned long,
                        unsigned long);
SFI_EXPORT int prctl(int option, ...) {
  va_list ap;
  va_start(ap, option);
  unsigned long a2 = va_arg(ap, unsigned long), a3 = va_arg(ap, unsigned long),
                a4 = va_arg(ap, unsigned long), a5 = va_arg(ap, unsigned long);
  va_end(ap);
  if (SFI_CHECKED() && !prctl_open(option, a2)) {
    char what[40];
    snprintf(what, sizeof what, "prctl(option %d)", option);
    return (int)sfi_refuse(what);
  }
  return NEXT_AS(prctl_fn, "prctl")(option, a2, a3, a4, a5);
}

/* The gs base leads to the thread's state and its running domain
 * (dipc/sfi.h), the fs base to the TCB the state is checked against: a
 * domain that set either would pick its own rights. Reading them is
 * harmless. */
typedef int (*arch_prctl_fn)(int, unsigned long);
static int arch_prctl_refused(int code) {
  return code != ARCH_GET_FS && code != ARCH_GET_GS;
}
SFI_EXPORT int arch_prctl(int code, unsigned long addr) {
  if (SFI_CHECKED() && arch_prctl_refused(code))
    return (int)sfi_refuse("arch_prctl");
  return NEXT_AS(arch_prctl_fn, "arch_prctl")(code, addr);
}
SFI_EXPORT int __arch_prctl(int code, unsigned long addr) {
  if (SFI_CHECKED() && arch_prctl_refused(code))
    return (int)sfi_refuse("__arch_prctl");
  return NEXT_AS(arch_prctl_fn, "__arch_prctl")(code, addr);
}

/* The kernel writes each signal's frame at the top of the alternate
 * stack: placed over the rights matrix (or another domain's memory), that
 * frame, with the domain's registers in it, would be its rights. The stack
 * is the loader's (signals.c); reading it is harmless. */
typedef int (*sigaltstack_fn)(const stack_t *, stack_t *);
SFI_EXPORT int sigaltstack(const stack_t *ss, stack_t *old) {
  if (SFI_CHECKED()) {
    if (ss)
      return (int)sfi_refuse("sigaltstack");
    if (old)
      SFI_WRITE(old, sizeof *old);
  }
  return NEXT_AS(sigaltstack_fn, "sigaltstack")(ss, old);
}

/* ioctl's third argument is what each request says: a number, or memory
 * the kernel reads or writes, in which some requests hold further pointers
 * (SIOCGIFCONF's buffer: the kernel wrote interface names over the
 * domain's rights row). Only the requests listed are let through, each
 * checked for what it touches; any other is refused. */
static const struct {
  unsigned long request;
  unsigned size; /* 0: a number */
  unsigned char write;
} ioctl_requests[] = {
    {TCGETS, sizeof(struct termios), 1},   {TCSETS, sizeof(struct termios), 0},
    {TCSETSW, sizeof(struct termios), 0},  {TCSETSF, sizeof(struct termios), 0},
    {TIOCGWINSZ, sizeof(struct winsize), 1},
    {TIOCSWINSZ, sizeof(struct winsize), 0},
    {TIOCGPGRP, sizeof(pid_t), 1},         {TIOCSPGRP, sizeof(pid_t), 0},
    {FIONREAD, sizeof(int), 1},            {TIOCOUTQ, sizeof(int), 1},
    {FIONBIO, sizeof(int), 0},             {FIOASYNC, sizeof(int), 0},
    {FIOCLEX, 0, 0},                       {FIONCLEX, 0, 0},
    {TCFLSH, 0, 0},                        {TCSBRK, 0, 0},
    {TCXONC, 0, 0},
};

typedef int (*ioctl_fn)(int, unsigned long, ...);
SFI_EXPORT int ioctl(int fd, unsigned long request, ...) {
  va_list ap;
  va_start(ap, request);
  void *arg = va_arg(ap, void *);
  va_end(ap);
  if (SFI_CHECKED()) {
    size_t i = 0, n = sizeof ioctl_requests / sizeof ioctl_requests[0];
    while (i < n && ioctl_requests[i].request != request)
      ++i;
    if (i == n) {
      char what[48];
      snprintf(what, sizeof what, "ioctl(request %#lx)", request);
      return (int)sfi_refuse(what);
    }
    if (ioctl_requests[i].size)
      sfi_check((uintptr_t)arg, ioctl_requests[i].size,
                ioctl_requests[i].write);
  }
  return NEXT_AS(ioctl_fn, "ioctl")(fd, request, arg);
}

typedef int (*personality_fn)(unsigned long);
SFI_EXPORT int personality(unsigned long persona) {
  if (SFI_CHECKED() && persona != 0xffffffff && (persona & READ_IMPLIES_EXEC))
    return (int)sfi_refuse("personality(READ_IMPLIES_EXEC)");
  return NEXT_AS(personality_fn, "personality")(persona);
}

typedef int (*brk_fn)(void *);
SFI_EXPORT int brk(void *end) {
  if (SFI_CHECKED())
    return (int)sfi_refuse("brk");
  return NEXT_AS(brk_fn, "brk")(end);
}

typedef void *(*sbrk_fn)(intptr_t);
SFI_EXPORT void *sbrk(intptr_t inc) {
  if (SFI_CHECKED() && inc != 0) {
    sfi_refuse("sbrk");
    return (void *)-1;
  }
  return NEXT_AS(sbrk_fn, "sbrk")(inc);
}

typedef long (*ptrace_fn)(int, pid_t, void *, void *);
SFI_EXPORT long ptrace(int request, ...) {
  va_list ap;
  va_start(ap, request);
  pid_t pid = va_arg(ap, pid_t);
  void *addr = va_arg(ap, void *), *data = va_arg(ap, void *);
  va_end(ap);
  if (SFI_CHECKED())
    return sfi_refuse("ptrace");
  return NEXT_AS(ptrace_fn, "ptrace")(request, pid, addr, data);
}

typedef ssize_t (*process_vm_fn)(pid_t, const struct iovec *, unsigned long,
                                 const struct iovec *, unsigned long,
                                 unsigned long);
SFI_EXPORT ssize_t process_vm_readv(pid_t pid, const struct iovec *local,
                                unsigned long nl, const struct iovec *remote,
                                unsigned long nr, unsigned long flags) {
  if (SFI_CHECKED())
    return sfi_refuse("process_vm_readv");
  return NEXT_AS(process_vm_fn, "process_vm_readv")(pid, local, nl,
                                                           remote, nr, flags);
}

SFI_EXPORT ssize_t process_vm_writev(pid_t pid, const struct iovec *local,
                                 unsigned long nl, const struct iovec *remote,
                                 unsigned long nr, unsigned long flags) {
  if (SFI_CHECKED())
    return sfi_refuse("process_vm_writev");
  return NEXT_AS(process_vm_fn, "process_vm_writev")(pid, local, nl,
                                                            remote, nr, flags);
}

/* clone(2)'s wrapper: a child sharing the memory (CLONE_VM: a thread,
 * or vfork's kind) would start past the pthread_create wrapper with no
 * runtime state of its own, sharing its creator's (the same %gs base),
 * under `sfi` the running domain, shadow stack and KCS. Refused to
 * instrumented code (threads come from pthread_create or thrd_create);
 * a fork-like child (no CLONE_VM) has its own copy of everything. */
typedef int (*clone_fn)(int (*)(void *), void *, int, void *, pid_t *, void *,
                        pid_t *);
static int clone_as(const char *name, int checked, int (*fn)(void *),
                    void *stack, int flags, void *arg, va_list ap) {
  pid_t *parent_tid = va_arg(ap, pid_t *);
  void *tls = va_arg(ap, void *);
  pid_t *child_tid = va_arg(ap, pid_t *);
  if (checked && (flags & CLONE_VM))
    return (int)sfi_refuse(name);
  return NEXT_AS(clone_fn, "clone")(fn, stack, flags, arg, parent_tid, tls,
                                    child_tid);
}

SFI_EXPORT int clone(int (*fn)(void *), void *stack, int flags, void *arg,
                     ...) {
  va_list ap;
  va_start(ap, arg);
  int r = clone_as("clone", SFI_CHECKED(), fn, stack, flags, arg, ap);
  va_end(ap);
  return r;
}

SFI_EXPORT int __clone(int (*fn)(void *), void *stack, int flags, void *arg,
                     ...) {
  va_list ap;
  va_start(ap, arg);
  int r = clone_as("__clone", SFI_CHECKED(), fn, stack, flags, arg, ap);
  va_end(ap);
  return r;
}

/* syscall(2) reaches every call above with any arguments: from a domain
 * only calls that take no memory and change nothing of the runtime's. */
typedef long (*syscall_fn)(long, long, long, long, long, long, long);
SFI_EXPORT long syscall(long nr, ...) {
  va_list ap;
  va_start(ap, nr);
  long a[6];
  for (int i = 0; i < 6; ++i)
    a[i] = va_arg(ap, long);
  va_end(ap);
  if (SFI_CHECKED() && nr != SYS_gettid && nr != SYS_getpid &&
      nr != SYS_getppid && nr != SYS_sched_yield && nr != SYS_getuid &&
      nr != SYS_geteuid && nr != SYS_getgid && nr != SYS_getegid)
    return sfi_refuse("syscall(2)");
  return NEXT_AS(syscall_fn, "syscall")(nr, a[0], a[1], a[2], a[3],
                                               a[4], a[5]);
}
