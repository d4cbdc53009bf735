/* exec.c - how memory becomes executable once the program runs (mpk): the
 * seccomp filter (seccomp.c) traps every mmap or mprotect with PROT_EXEC
 * that is not the runtime's own, from any code (glibc's mmap64, a raw
 * syscall, the dynamic linker mapping a library in dlopen, before any of
 * its code runs). The loader's SIGSYS handler hands the trap to
 * dipc_exec_trap, which resumes the thread in __dipc_exec_trampoline
 * (sys.S), in its own domain and on its own stack; the trampoline enters
 * the API gate, and dipc_op_exec makes the call in trusted mode, checked:
 *
 * - never writable and executable at once (W^X), never shared (another
 *   mapping could write it);
 * - only the default domain's memory (key 0, private) becomes executable,
 *   never where a domain's pages are registered (domain.c's ranges);
 * - the bytes are copied into fresh anonymous memory under the runtime
 *   key (no domain can write it meanwhile, whatever it mprotects),
 *   scanned for PKRU-writing sequences at every offset (codescan.c), and
 *   only then made executable default-domain memory (through the
 *   cookie-carrying syscall) and moved into place with mremap: later
 *   writes to a file behind the mapping, or a dropped page re-read from
 *   it, cannot change the code.
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

#ifndef SYS_SECCOMP
#define SYS_SECCOMP 1 /* si_code of a seccomp SIGSYS */
#endif

DIPC_HIDDEN extern const char __dipc_exec_trampoline[];

static unsigned long refusals; /* of files: dlopen stops the program */

DIPC_EXPORT unsigned long dipc_exec_refusals(void) {
  return __atomic_load_n(&refusals, __ATOMIC_RELAXED);
}

/* Messages go straight to fd 2: another thread may hold stdio's lock. */
__attribute__((format(printf, 1, 2))) static void say(const char *fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n > 0)
    (void)!write(STDERR_FILENO, line,
                 (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

/* ---- in the SIGSYS handler ---------------------------------------------- */

static uintptr_t runtime_lo, runtime_hi; /* libdipc's text */

void dipc_exec_init(uintptr_t text_lo, uintptr_t text_hi) {
  runtime_lo = text_lo;
  runtime_hi = text_hi;
}

DIPC_EXPORT int dipc_exec_trap(const void *siginfo, void *ucontext) {
  const siginfo_t *info = siginfo;
  if (info->si_signo != SIGSYS || info->si_code != SYS_SECCOMP ||
      info->si_errno != DIPC_SECCOMP_EXEC_DATA)
    return 0;
  greg_t *g = ((ucontext_t *)ucontext)->uc_mcontext.gregs;
  uintptr_t at = (uintptr_t)info->si_call_addr, sp = (uintptr_t)g[REG_RSP];
  stack_t alt;
  /* Runtime code (e.g. dom_mmap with PROT_EXEC) gets no executable memory
   * this way, nor code running on the signal stack (the API gate accepts
   * only the thread's stack). */
  if ((at >= runtime_lo && at < runtime_hi) ||
      (sigaltstack(NULL, &alt) == 0 && sp >= (uintptr_t)alt.ss_sp &&
       sp < (uintptr_t)alt.ss_sp + alt.ss_size)) {
    g[REG_RAX] = -EPERM;
    return 1;
  }
  g[REG_RAX] = info->si_syscall;
  g[REG_RCX] = g[REG_RIP];
  g[REG_RIP] = (greg_t)__dipc_exec_trampoline;
  return 1;
}

/* ---- trusted ------------------------------------------------------------ */

enum { MAX_PIECES = 16 };
struct piece {
  uintptr_t lo, hi;
  int prot, changed;
};

/* The mappings making up [lo, hi), which must all be private memory of
 * the default domain: 0 and *n pieces, or -errno. */
static int default_pieces(uintptr_t lo, uintptr_t hi, struct piece *pieces,
                          unsigned *n) {
  FILE *f = fopen("/proc/self/smaps", "re");
  if (!f)
    return -ENOMEM;
  char line[512], perms[8] = "";
  uintptr_t at = lo, s = 0, e = 0;
  int err = 0, in = 0;
  *n = 0;
  while (!err && fgets(line, sizeof line, f)) {
    unsigned long a, b;
    int key;
    if (sscanf(line, "%lx-%lx %7s ", &a, &b, perms) == 3) {
      s = a, e = b;
      in = e > at && s < hi;
      if (in && s > at)
        err = -ENOMEM; /* a hole */
    } else if (in && sscanf(line, "ProtectionKey: %d", &key) == 1) {
      in = 0;
      if (key != 0 || perms[3] != 'p')
        err = -EACCES;
      else if (*n == MAX_PIECES)
        err = -EINVAL;
      else {
        pieces[(*n)++] = (struct piece){at, e < hi ? e : hi,
                                        (perms[0] == 'r' ? PROT_READ : 0) |
                                            (perms[1] == 'w' ? PROT_WRITE : 0) |
                                            (perms[2] == 'x' ? PROT_EXEC : 0),
                                        0};
        at = e < hi ? e : hi;
        if (at == hi)
          break;
      }
    }
  }
  fclose(f);
  return err ? err : at < hi ? -ENOMEM : 0;
}

/* Where a domain's pages were (unmapped and mapped again by anyone), no
 * other code may become executable: calls into the domain land there. */
static int refuse_domain_memory(uintptr_t addr, size_t len) {
  if (dipc_domain_owns(0, addr, addr + len))
    return 0;
  say("dipc: refusing to make %#lx executable: it is a domain's memory\n",
      (unsigned long)addr);
  return 1;
}

static long refuse_writable(uintptr_t addr, size_t len) {
  say("dipc: refusing writable and executable memory at %#lx (%zu bytes): "
      "its code could be changed after it was checked\n",
      (unsigned long)addr, len);
  return -EACCES;
}

/* Fresh memory for a copy, under the runtime key while it is written and
 * checked: no domain can change it then, even after mprotect. */
static uint8_t *scratch(size_t len) {
  uint8_t *tmp = mmap(NULL, len, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (tmp != MAP_FAILED &&
      dipc_sys_pkey_mprotect(tmp, len, PROT_READ | PROT_WRITE,
                             RT_PKEY_RUNTIME) != 0) {
    munmap(tmp, len);
    tmp = MAP_FAILED;
  }
  return tmp;
}

/* Makes the checked copy at tmp executable with `prot`, default-domain
 * memory, and moves it over [addr, addr+len). */
static long install(void *tmp, uintptr_t addr, size_t len, int prot) {
  if (dipc_sys_pkey_mprotect(tmp, len, prot, 0) != 0 ||
      mremap(tmp, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)addr) ==
          MAP_FAILED) {
    long err = -errno;
    munmap(tmp, len);
    return err;
  }
  return 0;
}

/* Copies [addr, addr+len) and, if the copy holds no PKRU-writing bytes,
 * installs it executable with `prot`; what the caller froze stays so. */
static long check_and_install(uintptr_t addr, size_t len, int prot) {
  uint8_t *tmp = scratch(len);
  if (tmp == MAP_FAILED)
    return -ENOMEM;
  memcpy(tmp, (void *)addr, len);
  struct dipc_code_hit hit;
  if (dipc_code_scan(tmp, len, &hit)) {
    say("dipc: refusing to make %#lx executable: it contains a %s "
        "instruction at %#lx, which could switch protection keys outside "
        "dIPC's gates\n",
        (unsigned long)addr, hit.insn, (unsigned long)(addr + hit.offset));
    munmap(tmp, len);
    return -EACCES;
  }
  return install(tmp, addr, len, prot);
}

/* mprotect(addr, len, prot) with PROT_EXEC. */
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
  if (refuse_domain_memory(addr, len))
    return -EACCES;
  struct piece pieces[MAX_PIECES];
  unsigned n = 0;
  long r = default_pieces(addr, addr + len, pieces, &n);
  if (r == -EACCES)
    say("dipc: refusing to make %#lx executable: it is not private memory "
        "of the default domain\n",
        (unsigned long)addr);
  /* Readable for the copy (JITs reserve PROT_NONE), and no longer
   * writable, as the call would leave it; checked code already is. */
  for (unsigned i = 0; r == 0 && i < n; ++i) {
    struct piece *q = &pieces[i];
    if ((q->prot & (PROT_EXEC | PROT_WRITE)) == PROT_EXEC)
      continue;
    if (mprotect((void *)q->lo, q->hi - q->lo, PROT_READ) != 0)
      r = -errno;
    q->changed = r == 0;
  }
  if (r == 0)
    r = check_and_install(addr, len, prot);
  for (unsigned i = 0; r != 0 && i < n; ++i)
    if (pieces[i].changed)
      mprotect((void *)pieces[i].lo, pieces[i].hi - pieces[i].lo,
               pieces[i].prot);
  return r;
}

/* mmap(addr, len, prot, flags, fd, offset) with PROT_EXEC. */
static long exec_map(uintptr_t addr, size_t len, int prot, int flags, int fd,
                     off_t offset) {
  if (prot & PROT_WRITE)
    return refuse_writable(addr, len);
  if ((flags & MAP_TYPE) != MAP_PRIVATE) {
    say("dipc: refusing shared executable memory (%zu bytes): another "
        "mapping could change its code\n",
        len);
    return -EACCES;
  }
  /* Where and whether the program's call would map: the same call,
   * readable only. */
  uint8_t *p = mmap((void *)addr, len, PROT_READ, flags, fd, offset);
  if (p == MAP_FAILED)
    return -errno;
  len = (len + RT_PAGE - 1) & ~(RT_PAGE - 1);
  if (refuse_domain_memory((uintptr_t)p, len)) {
    munmap(p, len);
    return -EACCES;
  }
  uint8_t *tmp = scratch(len);
  if (tmp == MAP_FAILED) {
    munmap(p, len);
    return -ENOMEM;
  }
  /* The file's bytes now; beyond its end, zeros. */
  for (size_t done = 0; !(flags & MAP_ANONYMOUS) && done < len;) {
    ssize_t got = pread(fd, tmp + done, len - done, offset + (off_t)done);
    if (got <= 0)
      break;
    done += (size_t)got;
  }
  struct dipc_code_hit hit;
  if (dipc_code_scan(tmp, len, &hit)) {
    char path[64], file[256] = "a file";
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    ssize_t k = readlink(path, file, sizeof file - 1);
    if (k > 0)
      file[k] = '\0';
    say("dipc: refusing %s: it contains a %s instruction at file offset "
        "%#lx, which could switch protection keys outside dIPC's gates\n",
        file, hit.insn, (unsigned long)(offset + (off_t)hit.offset));
    __atomic_add_fetch(&refusals, 1, __ATOMIC_RELAXED);
    munmap(tmp, len);
    munmap(p, len);
    return -EACCES;
  }
  long r = install(tmp, (uintptr_t)p, len, prot);
  if (r != 0) {
    munmap(p, len);
    return r;
  }
  return (long)p;
}

long dipc_op_exec(struct dipc_gate_args *a) {
  const uint64_t *x = a->arg;
  if (dipc_machine.backend != DIPC_BACKEND_MPK || !((int)x[3] & PROT_EXEC))
    return -EPERM;

  if (x[0] == SYS_mprotect)
    return exec_protect(x[1], x[2], (int)x[3]);
  if (x[0] == SYS_mmap)
    return exec_map(x[1], x[2], (int)x[3], (int)x[4], (int)x[5], (off_t)x[6]);
  return -ENOSYS;
}
