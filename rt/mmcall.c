/* mmcall.c - which memory a domain may unmap, replace or move (mpk).
 * Protection keys stop a domain from reading or writing another's pages,
 * not from asking the kernel to drop them: munmap, mremap, a MAP_FIXED
 * mmap, brk or a destructive madvise on a victim's range, followed by a
 * mapping of a file the attacker wrote, would replace the victim's data,
 * stack or return addresses with the attacker's bytes under key 0. The
 * seccomp filter (seccomp.c) traps these calls from every code but the
 * runtime's; the thread resumes in the API gate, in its own domain
 * (exec.c), and here the call is made for it if its domain may write the
 * whole range, as it could then change those bytes anyway:
 *
 * - nobody changes the runtime's memory or the unsafe-stack region (the
 *   runtime maps and clears those itself);
 * - the default domain and the domains that may write it change any other
 *   memory: they are trusted (docs/runtime.md §6), and glibc's allocator
 *   and thread code work as without dIPC;
 * - no other domain makes these calls. Its memory comes from dom_mmap and
 *   the runtime's range tables: a page it unmapped would stay its in them
 *   while the kernel hands the address to someone else (and anonymous
 *   memory it maps itself is the default domain's, which it cannot use).
 *
 * Errors come back as the system call's: EACCES when refused. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

static uintptr_t page_down(uintptr_t a) { return a & ~(RT_PAGE - 1); }

/* [addr, addr + len) rounded out to pages; 0 if it wraps. */
static int pages(uint64_t addr, uint64_t len, uintptr_t *lo, uintptr_t *hi) {
  *lo = page_down(addr);
  *hi = page_down(addr + len + RT_PAGE - 1);
  return len > 0 && addr + len >= addr && *hi > *lo;
}

static int trusted(uint32_t dom) {
  return dom == 0 || dipc_apl_get(dom, 0) >= DIPC_PERM_WRITE;
}

static const char *const call_names[] = {
    [SYS_mmap] = "mmap(MAP_FIXED)", [SYS_munmap] = "munmap",
    [SYS_mremap] = "mremap",        [SYS_madvise] = "madvise",
    [SYS_mprotect] = "mprotect",    [SYS_brk] = "brk",
    [SYS_shmdt] = "shmdt"};

static void refused(long nr, uint32_t dom, uintptr_t lo, uintptr_t hi,
                    const char *why) {
  dipc_say("dipc: refusing %s of %#lx-%#lx from domain %u: %s\n",
           call_names[nr], (unsigned long)lo, (unsigned long)hi, dom, why);
}

long dipc_may_change(long nr, uint32_t dom, uint64_t addr, uint64_t len) {
  uintptr_t lo, hi;
  if (!pages(addr, len, &lo, &hi))
    return 0; /* the kernel gives its own error, or does nothing */
  if (dipc_runtime_owned(lo, hi) || dipc_unsafe_overlaps(lo, hi)) {
    refused(nr, dom, lo, hi, "it is the runtime's memory");
    return -EACCES;
  }
  if (!trusted(dom)) {
    refused(nr, dom, lo, hi,
            "only the default domain and domains that may write it change "
            "mappings");
    return -EACCES;
  }
  return 0;
}

/* Whether the filter traps madvise(advice): advice that drops or resets
 * contents, or exposes them to a child. Not MADV_DONTNEED: glibc issues it
 * on a thread's stack as the thread exits, with every signal blocked,
 * where a trap would kill the process (docs/runtime.md §6: not enforced). */
int dipc_madvise_trapped(int advice) {
  switch (advice) {
  case MADV_DONTNEED:
  case MADV_NORMAL:
  case MADV_RANDOM:
  case MADV_SEQUENTIAL:
  case MADV_WILLNEED:
  case MADV_HUGEPAGE:
  case MADV_NOHUGEPAGE:
  case MADV_DONTDUMP:
  case MADV_DODUMP:
  case MADV_POPULATE_READ:
  case MADV_POPULATE_WRITE:
    return 0;
  }
  return 1;
}

static long result(long r) { return r == -1 ? -errno : r; }

long dipc_op_memory_call(const uint64_t *x, uint32_t dom) {
  long nr = (long)x[0], r;
  if (dipc_machine.backend != DIPC_BACKEND_MPK)
    return -EPERM; /* no filter, nothing trapped */
  if ((nr == SYS_mmap || nr == SYS_mprotect) && (x[3] & PROT_EXEC)) {
    r = (nr == SYS_mprotect || (x[4] & MAP_FIXED))
            ? dipc_may_change(nr, dom, x[1], x[2])
            : 0;
    return r ? r : dipc_op_exec(x);
  }
  switch (nr) {
  case SYS_munmap:
    r = dipc_may_change(nr, dom, x[1], x[2]);
    return r ? r : result(dipc_sys(nr, (long)x[1], (long)x[2], 0, 0, 0));
  case SYS_madvise:
    r = dipc_may_change(nr, dom, x[1], x[2]);
    return r ? r
             : result(dipc_sys(nr, (long)x[1], (long)x[2], (long)x[3], 0, 0));
  case SYS_mremap:
    r = dipc_may_change(nr, dom, x[1], x[2]);
    if (!r && (x[4] & MREMAP_FIXED))
      r = dipc_may_change(nr, dom, x[5], x[3]);
    /* In place, a growing mapping takes only free pages. */
    return r ? r
             : result(dipc_sys(nr, (long)x[1], (long)x[2], (long)x[3],
                               (long)x[4], (long)x[5]));
  case SYS_mmap: /* MAP_FIXED, without PROT_EXEC */
    if (!(x[4] & MAP_FIXED) || (x[3] & PROT_EXEC))
      return -EPERM;
    r = dipc_may_change(nr, dom, x[1], x[2]);
    return r ? r
             : dipc_sys_map_fixed(x[1], x[2], (int)x[3], (int)x[4], (int)x[5],
                                  (off_t)x[6]);
  case SYS_brk:
  case SYS_shmdt:
    r = dipc_may_change(nr, dom, x[1], RT_PAGE);
    return r ? r : result(dipc_sys(nr, (long)x[1], 0, 0, 0, 0));
  }
  return -EPERM;
}

/* Cross-process roles, as dipc-run started the process (read at init, not
 * later: the program may change its environment): dipc_share_map. */
static uint8_t listening, connecting;
/* The threads (slots) that may map over a reservation (copy = 0): those
 * that claimed it before the loader sealed the claims, at start, before
 * the program's code runs (the loader's watcher threads). */
#define MAX_SHARE_THREADS 8
static uint32_t share_threads[MAX_SHARE_THREADS], num_share_threads;
static uint8_t share_sealed;

static long share_claim(const struct dipc_thread *st, int seal) {
  if (!connecting || share_sealed)
    return -DIPC_EPERM;
  if (seal) {
    share_sealed = 1;
    return 0;
  }
  if (num_share_threads == MAX_SHARE_THREADS)
    return -DIPC_ENOSPC;
  share_threads[num_share_threads++] = st->index;
  return 0;
}

static int share_thread(const struct dipc_thread *st) {
  for (uint32_t i = 0; i < num_share_threads; i++)
    if (share_threads[i] == st->index)
      return 1;
  return 0;
}

void dipc_share_map_init(void) {
  listening = getenv("DIPC_LISTEN") != NULL;
  connecting = getenv("DIPC_CONNECT") != NULL;
}

/* OP_SHARE_MAP (dipc_share_map, dipc/rt.h). The new mapping is made
 * elsewhere, given the keys of the domains owning the pages it replaces,
 * and only then moved into place: no page of a domain is ever under key 0
 * at its address. */
long dipc_op_share_map(const struct dipc_thread *st, const uint64_t *x) {
  uintptr_t lo = x[0], hi = x[0] + x[1];
  int prot = (int)x[2], copy = (int)x[5];
  if (st->cur_dom != 0)
    return -DIPC_EPERM;
  if (x[0] == 0 && x[1] == 0 && x[5] == 0 && (x[3] == (uint64_t)-1 ||
                                             x[3] == (uint64_t)-2))
    return share_claim(st, x[3] == (uint64_t)-2);
  if (x[3] == (uint64_t)-3 && x[5] == 0) { /* the domain stands for another */
    uint32_t owner = dipc_domain_reserved_owner(lo, hi);
    if (!connecting || !share_thread(st) || !owner) /* (0: empty range) */
      return -DIPC_EPERM;
    dipc_domain_set_foreign(owner);
    return 0;
  }
  if ((lo | x[1] | x[4]) & (RT_PAGE - 1) || x[1] == 0 || hi < lo ||
      (copy < 2 && x[2] & ~(uint64_t)(PROT_READ | PROT_WRITE)) ||
      x[3] > INT32_MAX || x[5] > 2)
    return -DIPC_EINVAL;
  uint32_t owner = copy ? 0 : dipc_domain_reserved_owner(lo, hi);
  if (copy ? !listening : !connecting || !share_thread(st) || !owner)
    return -DIPC_EPERM;
  if (dipc_runtime_owned(lo, hi) || dipc_unsafe_overlaps(lo, hi) ||
      (lo < RT_WINDOW_HI && RT_WINDOW_LO < hi))
    return -DIPC_EPERM;
  int fd = (int)x[3];
  if (copy == 2) /* code: its bytes only (domains' code pages too) */
    return dipc_sys(SYS_pwrite64, fd, (long)lo, (long)(hi - lo), (long)x[4],
                    0) == (long)(hi - lo)
               ? 0
               : -DIPC_EINVAL;
  if (copy && (prot & PROT_READ) &&
      dipc_sys(SYS_pwrite64, fd, (long)lo, (long)(hi - lo), (long)x[4], 0) !=
          (long)(hi - lo))
    return -DIPC_EINVAL;
  void *p = dipc_sys_mmap_for_domain(NULL, hi - lo, prot, MAP_SHARED, fd,
                                     (int64_t)x[4]);
  if (p == MAP_FAILED)
    return -DIPC_ENOMEM;
  uintptr_t at = (uintptr_t)p;
  if ((dipc_machine.backend == DIPC_BACKEND_MPK &&
       dipc_domain_key_copy(at, lo, hi, prot) != 0) ||
      dipc_sys_move(at, hi - lo, lo) != 0) {
    dipc_sys(SYS_munmap, (long)at, (long)(hi - lo), 0, 0, 0);
    return -DIPC_ENOMEM;
  }
  if (copy)
    return 0;
  /* Mapped over once: what a re-key applies, and never again this way. */
  return dipc_domain_set_prot(lo, hi, prot) == 0 ? 0 : -DIPC_ENOSPC;
}
