/* exec.c - how memory becomes executable once the program runs (mpk): the
 * seccomp filter (seccomp.c) traps every mmap or mprotect with PROT_EXEC
 * that is not the runtime's own, from any code (glibc's mmap64, a raw
 * syscall, the dynamic linker mapping a library in dlopen, before any of
 * its code runs). The loader's SIGSYS handler hands the trap to
 * dipc_syscall_trap, which resumes the thread in __dipc_trap_trampoline
 * (sys.S), in its own domain and on its own stack; the trampoline enters
 * the API gate, and dipc_op_exec makes the call in trusted mode, checked:
 *
 * - never writable and executable at once (W^X), never shared (another
 *   mapping could write it);
 * - only the default domain's memory (key 0, private) becomes executable,
 *   never where a domain's pages are registered (domain.c's ranges);
 * - the memory is moved into the runtime's window, where no one else can
 *   swap it for another mapping, checked there, copied into fresh memory
 *   under the runtime key, scanned for PKRU-writing sequences at every
 *   offset (codescan.c), made executable default-domain memory there
 *   (through the cookie-carrying syscall) and moved into place with one
 *   mremap: later writes to a file behind the mapping, or a dropped page
 *   re-read from it, cannot change the code.
 *
 * Errors come back as the system call's (-errno): EACCES when refused. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "internal.h"
#include "procmaps.h"

#ifndef SYS_SECCOMP
#define SYS_SECCOMP 1 /* si_code of a seccomp SIGSYS */
#endif

DIPC_HIDDEN extern const char __dipc_trap_trampoline[],
    __dipc_trusted_syscall[];

static unsigned long refusals; /* of files: dlopen stops the program */

DIPC_EXPORT unsigned long dipc_exec_refusals(void) {
  return __atomic_load_n(&refusals, __ATOMIC_RELAXED);
}

/* ---- in the SIGSYS handler ---------------------------------------------- */

static uintptr_t runtime_lo, runtime_hi; /* libdipc's text */

void dipc_exec_init(uintptr_t text_lo, uintptr_t text_hi) {
  runtime_lo = text_lo;
  runtime_hi = text_hi;
}

DIPC_EXPORT int dipc_syscall_trap(const void *siginfo, void *ucontext) {
  const siginfo_t *info = siginfo;
  if (dipc_machine.backend != DIPC_BACKEND_MPK || /* no filter */
      info->si_signo != SIGSYS || info->si_code != SYS_SECCOMP ||
      info->si_errno != DIPC_SECCOMP_TRAP_DATA)
    return 0;
  greg_t *g = ((ucontext_t *)ucontext)->uc_mcontext.gregs;
  /* A trap stops the thread just after its syscall instruction. (The
   * filter refuses siginfo of a sender's making, which could say so.) */
  if ((uintptr_t)info->si_call_addr != (uintptr_t)g[REG_RIP])
    return 0;
  uintptr_t at = (uintptr_t)info->si_call_addr, sp = (uintptr_t)g[REG_RSP];
  stack_t alt;
  uint32_t pkru;
  if (dipc_frame_pkru(ucontext, &pkru) && pkru == 0) {
    /* Trusted code (PKRU 0 only there): glibc dropping memory under the
     * runtime is made as the runtime's own call; nothing else. */
    int nr = info->si_syscall;
    if (nr == SYS_munmap || nr == SYS_madvise || nr == SYS_mremap ||
        nr == SYS_brk || nr == SYS_shmdt) {
      g[REG_RAX] = nr;
      g[REG_RCX] = g[REG_RIP];
      g[REG_RIP] = (greg_t)__dipc_trusted_syscall;
    } else
      g[REG_RAX] = -EPERM;
    return 1;
  }
  /* Runtime code (e.g. dom_mmap with PROT_EXEC) gets no executable memory
   * this way, nor code running on the signal stack (the API gate accepts
   * only the thread's stack). */
  if ((at >= runtime_lo && at < runtime_hi) ||
      (sigaltstack(NULL, &alt) == 0 && dipc_on_signal_stack(sp, &alt))) {
    g[REG_RAX] = -EPERM;
    return 1;
  }
  g[REG_RAX] = info->si_syscall;
  g[REG_RCX] = g[REG_RIP];
  g[REG_RIP] = (greg_t)__dipc_trap_trampoline;
  return 1;
}

/* ---- trusted ------------------------------------------------------------ */

/* mmap at exactly `addr`, replacing what is there: mapped elsewhere, then
 * moved (the cookie takes the offset's register). */
long dipc_sys_map_fixed(uint64_t addr, uint64_t len, int prot, int flags,
                        int fd, int64_t offset) {
  void *p = dipc_sys_mmap_for_domain(
      NULL, len, prot, flags & ~(MAP_FIXED | MAP_FIXED_NOREPLACE), fd, offset);
  if (p == MAP_FAILED)
    return -errno;
  size_t size = (len + RT_PAGE - 1) & ~(RT_PAGE - 1);
  if (dipc_sys_move((uintptr_t)p, size, addr) != 0) {
    long err = -errno;
    dipc_sys(SYS_munmap, (long)p, (long)size, 0, 0, 0);
    return err;
  }
  return (long)addr;
}


enum { MAX_PIECES = 16 };
struct piece {
  uintptr_t lo, hi;
  int prot;
};

struct pieces_walk {
  uintptr_t at, hi; /* the next byte to find, and the end */
  uintptr_t e;      /* the end of the mapping being read */
  struct piece *pieces;
  unsigned *n;
  char perms[8];
  int in; /* the mapping being read overlaps [at, hi) */
  int err;
};

/* One line of smaps: a mapping's first, or its protection key. */
static int pieces_line(const char *line, void *p) {
  struct pieces_walk *w = p;
  unsigned long s, e;
  int key;
  if (sscanf(line, "%lx-%lx %7s ", &s, &e, w->perms) == 3) {
    w->e = e;
    w->in = e > w->at && s < w->hi;
    if (w->in && s > w->at)
      w->err = -ENOMEM; /* a hole */
  } else if (w->in && sscanf(line, "ProtectionKey: %d", &key) == 1) {
    uintptr_t end = w->e < w->hi ? w->e : w->hi;
    w->in = 0;
    if (key != 0 || w->perms[3] != 'p')
      w->err = -EACCES;
    else if (*w->n == MAX_PIECES)
      w->err = -EINVAL;
    else {
      w->pieces[(*w->n)++] =
          (struct piece){w->at, end,
                         (w->perms[0] == 'r' ? PROT_READ : 0) |
                             (w->perms[1] == 'w' ? PROT_WRITE : 0) |
                             (w->perms[2] == 'x' ? PROT_EXEC : 0)};
      w->at = end;
      if (w->at == w->hi)
        return 1; /* found whole */
    }
  }
  return w->err;
}

/* The mappings making up [lo, hi), which must all be private memory of
 * the default domain: 0 and *n pieces, or -errno. */
static int default_pieces(uintptr_t lo, uintptr_t hi, struct piece *pieces,
                          unsigned *n) {
  struct pieces_walk w = {.at = lo, .hi = hi, .pieces = pieces, .n = n};
  *n = 0;
  int r = dipc_proc_lines("/proc/self/smaps", pieces_line, &w);
  if (r < 0 && !w.err)
    return -ENOMEM; /* could not open it */
  return w.err ? w.err : w.at < hi ? -ENOMEM : 0;
}

/* Where a domain's pages were (unmapped and mapped again by anyone), no
 * other code may become executable: calls into the domain land there. */
static int refuse_domain_memory(uintptr_t addr, size_t len) {
  if (dipc_domain_owns(0, addr, addr + len))
    return 0;
  dipc_say("dipc: refusing to make %#lx executable: it is a domain's memory\n",
           (unsigned long)addr);
  return 1;
}

static long refuse_writable(uintptr_t addr, size_t len) {
  dipc_say("dipc: refusing writable and executable memory at %#lx (%zu bytes): "
           "its code could be changed after it was checked\n",
           (unsigned long)addr, len);
  return -EACCES;
}

/* The work happens in the window's scratch areas (layout.h), where no one
 * else can unmap, move or replace a mapping between a check and what
 * follows it: anywhere else, another thread could swap in a mapping of its
 * own (mremap) for the one checked, or another domain's for the one to be
 * copied. */
#define A RT_SCRATCH_A /* the program's memory, moved in to be copied */
#define B RT_SCRATCH_B /* the copy, checked, then moved out */

/* A scratch area goes back to reserved address space. */
static void release(uintptr_t at, size_t len) {
  DIPC_CHECK(dipc_sys_map_window(at, len, PROT_NONE) == 0,
             "cannot release the runtime's scratch area");
}

/* Fresh memory at B, under the runtime key. */
static int fresh_copy(size_t len) {
  return dipc_sys_map_window(B, len, PROT_READ | PROT_WRITE) == 0 &&
                 dipc_sys_pkey_mprotect((void *)B, len, PROT_READ | PROT_WRITE,
                                        RT_PKEY_RUNTIME) == 0
             ? 0
             : -1;
}

/* The checked bytes at B become executable default-domain memory with
 * `prot`, then replace [addr, addr+len) in one step. */
static long install(uintptr_t addr, size_t len, int prot) {
  long r = 0;
  if (dipc_sys_pkey_mprotect((void *)B, len, prot, 0) != 0 ||
      dipc_sys_move(B, len, addr) != 0)
    r = -errno;
  release(B, len);
  return r;
}

static int holds_pkru_write(uintptr_t addr, size_t len) {
  struct dipc_code_hit hit;
  if (!dipc_code_find((const void *)B, len, &hit))
    return 0;
  dipc_say("dipc: refusing to make %#lx executable: it contains a %s "
           "instruction at %#lx, which could switch protection keys outside "
           "dIPC's gates\n",
           (unsigned long)addr, hit.insn, (unsigned long)(addr + hit.offset));
  return 1;
}

/* mprotect(addr, len, prot) with PROT_EXEC: the pieces are moved into A,
 * checked there to be private default-domain memory, copied to B. */
static long exec_protect(uintptr_t addr, size_t len, int prot) {
  if (addr & (RT_PAGE - 1))
    return -EINVAL;
  len = (len + RT_PAGE - 1) & ~(RT_PAGE - 1);
  if (len == 0)
    return 0;
  if (addr + len < addr)
    return -ENOMEM;
  if (prot & PROT_WRITE)
    return refuse_writable(addr, len);
  if (len > RT_SCRATCH_SIZE)
    return -ENOMEM;
  if (refuse_domain_memory(addr, len))
    return -EACCES;
  struct piece pieces[MAX_PIECES];
  unsigned n = 0, moved = 0;
  long r = default_pieces(addr, addr + len, pieces, &n);
  for (; r == 0 && moved < n; ++moved)
    if (dipc_sys_move(pieces[moved].lo, pieces[moved].hi - pieces[moved].lo,
                      A + (pieces[moved].lo - addr)) != 0)
      r = -errno;
  if (r == 0) { /* what was moved in, not what was looked at before */
    struct piece held[MAX_PIECES];
    unsigned m;
    r = default_pieces(A, A + len, held, &m);
  }
  if (r == -EACCES)
    dipc_say("dipc: refusing to make %#lx executable: it is not private memory "
             "of the default domain\n",
             (unsigned long)addr);
  if (r == 0 && fresh_copy(len) != 0)
    r = -ENOMEM;
  if (r == 0) {
    DIPC_CHECK(
        dipc_sys_pkey_mprotect((void *)A, len, PROT_READ, RT_PKEY_RUNTIME) == 0,
        "cannot read the memory to check");
    memcpy((void *)B, (void *)A, len);
    if (holds_pkru_write(addr, len)) {
      release(B, len);
      r = -EACCES;
    }
  }
  if (r == 0) {
    r = install(addr, len, prot);
    release(A, len);
    return r;
  }
  /* Refused: the pieces go back as they were. */
  for (unsigned i = 0; i < moved; ++i) {
    uintptr_t at = A + (pieces[i].lo - addr);
    size_t size = pieces[i].hi - pieces[i].lo;
    dipc_sys_pkey_mprotect((void *)at, size, pieces[i].prot, 0);
    dipc_sys_move(at, size, pieces[i].lo);
  }
  if (moved)
    release(A, len);
  return r;
}

static void unmap(void *p, size_t len) {
  dipc_sys(SYS_munmap, (long)p, (long)len, 0, 0, 0);
}

/* mmap(addr, len, prot, flags, fd, offset) with PROT_EXEC: the file's
 * bytes are read into B. */
static long exec_map(uintptr_t addr, size_t len, int prot, int flags, int fd,
                     off_t offset) {
  if (prot & PROT_WRITE)
    return refuse_writable(addr, len);
  if ((flags & MAP_TYPE) != MAP_PRIVATE) {
    dipc_say("dipc: refusing shared executable memory (%zu bytes): another "
             "mapping could change its code\n",
             len);
    return -EACCES;
  }
  /* Where and whether the program's call would map: the same call,
   * readable only; it is replaced below. */
  uint8_t *p;
  if (flags & MAP_FIXED) { /* the filter would trap the runtime's call */
    long at = dipc_sys_map_fixed(addr, len, PROT_READ, flags, fd, offset);
    if (at < 0)
      return at;
    p = (uint8_t *)at;
  } else if ((p = dipc_sys_mmap_for_domain((void *)addr, len, PROT_READ, flags,
                                            fd, offset)) ==
             MAP_FAILED)
    return -errno;
  len = (len + RT_PAGE - 1) & ~(RT_PAGE - 1);
  long r = len > RT_SCRATCH_SIZE ? -ENOMEM : 0;
  if (r == 0 && refuse_domain_memory((uintptr_t)p, len))
    r = -EACCES;
  if (r == 0 && fresh_copy(len) != 0)
    r = -ENOMEM;
  if (r != 0) {
    unmap(p, len);
    return r;
  }
  /* The file's bytes now; beyond its end, zeros. */
  for (size_t done = 0; !(flags & MAP_ANONYMOUS) && done < len;) {
    ssize_t got =
        pread(fd, (uint8_t *)B + done, len - done, offset + (off_t)done);
    if (got <= 0)
      break;
    done += (size_t)got;
  }
  struct dipc_code_hit hit;
  if (dipc_code_find((const void *)B, len, &hit)) {
    char path[64], file[256] = "a file";
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    ssize_t k = readlink(path, file, sizeof file - 1);
    if (k > 0)
      file[k] = '\0';
    dipc_say("dipc: refusing %s: it contains a %s instruction at file offset "
             "%#lx, which could switch protection keys outside dIPC's gates\n",
             file, hit.insn, (unsigned long)(offset + (off_t)hit.offset));
    __atomic_add_fetch(&refusals, 1, __ATOMIC_RELAXED);
    release(B, len);
    unmap(p, len);
    return -EACCES;
  }
  r = install((uintptr_t)p, len, prot);
  if (r != 0) {
    unmap(p, len);
    return r;
  }
  return (long)p;
}

long dipc_op_exec(const uint64_t *x) {
  if (x[0] == SYS_mprotect)
    return exec_protect(x[1], x[2], (int)x[3]);
  return exec_map(x[1], x[2], (int)x[3], (int)x[4], (int)x[5], (off_t)x[6]);
}
