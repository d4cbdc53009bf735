/* thread.c - per-thread emulated CODOMs state, created lazily by the first
 * gate or proxy a thread runs. Each thread's state is one slot of the
 * thread region, tagged with the runtime key:
 *
 *   +0      struct dipc_thread (registers, capability registers, DCS)
 *   +16K    KCS, RT_KCS_ENTRIES entries
 *   +112K   callee-stack records, one per domain
 *   +144K   trusted stack (gates run C code here), top at +208K
 *   +248K   shadow-stack words (dipc/sfi.h): the top and floor of the
 *           thread's shadow stack, which -fdipc-sfi code pushes and pops;
 *           shared key (compiled code writes them under every backend),
 *           runtime tag under `sfi` (no domain writes them there)
 *   +252K   public page (dipc/abi.h): dipc_errno, the owner's fs base for
 *           the errno fast path, the unsafe stack pointer; tagged with the
 *           shared key, so that code in any domain reaches it through gs
 *
 * The thread finds it through the gs base (set once per thread) and checks
 * it against the thread's TCB (fs:0), so a state inherited through clone()
 * is never mistaken for the thread's own.
 *
 * Stacks (docs/runtime.md §2): a thread's own stack is the default
 * domain's memory (key 0, like its TCB and TLS); every cross-domain call
 * runs the callee on the thread's callee stack of the callee's domain,
 * tagged with that domain's key (the runtime key while it is parked), so
 * no domain reaches another's frames without a grant on it. Escaping
 * locals live on the thread's unsafe stack (shared key), one per slot in
 * the unsafe-stack region, which -fdipc code allocates from. */
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dipc/sfi.h"
#include "internal.h"
#include "procmaps.h"
#include "stateless_signals.h"

#define SLOT_MAPPED (256 * 1024)
#define DSTACKS_OFF (112 * 1024)
#define TRUSTED_TOP (208 * 1024)
_Static_assert(sizeof(struct dipc_thread) <= RT_KCS_OFF, "thread state size");
_Static_assert(RT_KCS_OFF + RT_KCS_ENTRIES * K_SIZE <= DSTACKS_OFF, "KCS size");
_Static_assert(DSTACKS_OFF + RT_MAX_DOMAINS * DS_SIZE + RT_TRUSTED_STACK <=
                   TRUSTED_TOP,
               "trusted stack size");
_Static_assert(TRUSTED_TOP <= DIPC_THREAD_PUBLIC_OFF &&
                   DIPC_THREAD_PUBLIC_OFF + RT_PAGE <= SLOT_MAPPED,
               "public thread page");
_Static_assert(TRUSTED_TOP <= RT_LOADER_SCRATCH_OFF &&
                   RT_LOADER_SCRATCH_OFF + RT_LOADER_SCRATCH_SIZE <=
                       DIPC_SFI_SSP_PAGE_GS_OFFSET,
               "the loader's scratch area: between the trusted stack and "
               "the shadow-stack words");
_Static_assert(TRUSTED_TOP <= DIPC_SFI_SSP_PAGE_GS_OFFSET &&
                   DIPC_SFI_SSP_PAGE_GS_OFFSET % RT_PAGE == 0 &&
                   DIPC_SFI_SSP_GS_OFFSET / RT_PAGE ==
                       DIPC_SFI_SSP_PAGE_GS_OFFSET / RT_PAGE &&
                   DIPC_SFI_SSP_PAGE_GS_OFFSET + RT_PAGE <= DIPC_THREAD_PUBLIC_OFF,
               "shadow-stack words: a page of their own in the slot");
_Static_assert(DIPC_ERRNO_GS_OFFSET / RT_PAGE == DIPC_THREAD_PUBLIC_OFF / RT_PAGE &&
                   DIPC_FSBASE_GS_OFFSET == DIPC_ERRNO_GS_OFFSET + 8 &&
                   DIPC_USP_GS_OFFSET == DIPC_ERRNO_GS_OFFSET + 16 &&
                   DIPC_DOM_GS_OFFSET == DIPC_ERRNO_GS_OFFSET + 24 &&
                   (DIPC_DOM_GS_OFFSET + 4) / RT_PAGE == DIPC_THREAD_PUBLIC_OFF / RT_PAGE,
               "dipc_errno, the fs base copy, the unsafe stack pointer and "
               "the domain hint in the public page, in that order");
_Static_assert(RT_KCS_OFF % RT_PAGE >= 2048 && RT_KCS_OFF % 64 == 0,
               "KCS entries at other page offsets than the state's words "
               "(4K aliasing, abi.h)");
_Static_assert((RT_THREAD_STRIDE & (RT_THREAD_STRIDE - 1)) == 0 &&
                   SLOT_MAPPED <= RT_THREAD_STRIDE,
               "slots start at multiples of a power of two");

static uint8_t slot_mapped[RT_MAX_THREADS];
/* pthread_exit's value in a thread a domain created (below). */
static uintptr_t exit_value[RT_MAX_THREADS];
static uint8_t exit_pending[RT_MAX_THREADS];
/* The slot's state was made by dipc_thread_init_reserved's gate, with the
 * reservation (until that op has run). */
static uint8_t slot_took_reservation[RT_MAX_THREADS];
/* Slots in use are [0, dipc_max_threads) (slots.c); of those, n_free are
 * SLOT_FREE and n_exited SLOT_EXITED. `reserved` free slots are set aside
 * for threads being created by the loader's pthread_create
 * (dipc_thread_reserve): only those threads may take them, so a thread it
 * starts always gets a slot. */
static unsigned n_free = RT_MAX_THREADS, n_exited, reserved;
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

void dipc_thread_limits_init(void) {
  const char *env = getenv("DIPC_MAX_THREADS");
  if (env) {
    char *end;
    unsigned long n = strtoul(env, &end, 10);
    DIPC_CHECK(*env && !*end && n >= 1 && n <= RT_MAX_THREADS,
               "DIPC_MAX_THREADS=%s: expected 1..%d", env, RT_MAX_THREADS);
    dipc_max_threads = (unsigned)n;
  }
  n_free = dipc_max_threads;
}


static void thread_exit_hook(void *st) {
  (void)st;
  sigset_t wait; /* stateless_signals.h */
  dipc_stateless_signals(&wait);
  pthread_sigmask(SIG_BLOCK, &wait, NULL);
  struct dipc_gate_args a = {0};
  dipc_gate(OP_THREAD_EXIT, &a);
}

static void make_exit_key(void) {
  DIPC_CHECK(pthread_key_create(&exit_key, thread_exit_hook) == 0,
             "pthread_key_create");
}

static uintptr_t read_fsbase(void) {
  uintptr_t fs;
  __asm__("mov %%fs:0, %0" : "=r"(fs));
  return fs;
}

/* The fs base itself (RDFSBASE's answer), as the kernel holds it. */
static uintptr_t real_fsbase(void) {
  unsigned long fs = 0;
  DIPC_CHECK(syscall(SYS_arch_prctl, ARCH_GET_FS, &fs) == 0,
             "cannot read the fs base");
  return fs;
}

/* The copy of the owner's fs base in the slot's public page (dipc/abi.h). */
static uintptr_t *public_fsbase(struct dipc_thread *st) {
  return (uintptr_t *)((char *)st + DIPC_FSBASE_GS_OFFSET);
}

static void pthread_stack(uintptr_t *lo, uintptr_t *hi) {
  pthread_attr_t attr;
  void *addr;
  size_t size;
  DIPC_CHECK(pthread_getattr_np(pthread_self(), &attr) == 0 &&
                 pthread_attr_getstack(&attr, &addr, &size) == 0,
             "cannot find the thread's stack");
  pthread_attr_destroy(&attr);
  *lo = (uintptr_t)addr;
  *hi = (uintptr_t)addr + size;
}

static int is_main_thread(void) { return syscall(SYS_gettid) == getpid(); }

/* The mapping holding at[0]: its bounds in at[1], at[2]. */
static int holds(const struct dipc_mapping *m, void *p) {
  uintptr_t *at = p;
  if (at[0] < m->lo || at[0] >= m->hi)
    return 0;
  at[1] = m->lo;
  at[2] = m->hi;
  return 1;
}

/* The thread's own stack, for the P2 check: the main thread's [stack]
 * mapping (up to its limit), or a pthread's whole stack block. */
static void find_own_stack(uintptr_t rsp, uintptr_t *lo, uintptr_t *hi) {
  if (is_main_thread()) {
    /* Main thread: the growing [stack] mapping holding rsp. */
    uintptr_t at[3] = {rsp, 0, 0};
    int found = dipc_maps_each(holds, at);
    DIPC_CHECK(found >= 0, "cannot read /proc/self/maps");
    DIPC_CHECK(found, "no mapping holds the main stack");
    uintptr_t s = at[1], e = at[2];
    struct rlimit rl;
    uintptr_t max = 64UL << 20;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur < max)
      max = rl.rlim_cur;
    *hi = e;
    *lo = e - max < s ? e - max : s;
    return;
  }
  pthread_stack(lo, hi);
  DIPC_CHECK(rsp >= *lo && rsp < *hi, "rsp %#lx outside the thread's stack",
             (unsigned long)rsp);
}

/* Slot i's unsafe stack: [lo, top), the stride above its guard. */
static uintptr_t unsafe_lo(unsigned i) {
  return dipc_unsafe_lo + (uintptr_t)i * RT_UNSAFE_STRIDE + RT_UNSAFE_GUARD;
}
static uintptr_t unsafe_top(unsigned i) {
  return dipc_unsafe_lo + ((uintptr_t)i + 1) * RT_UNSAFE_STRIDE;
}
/* A lent stride (layout.h, RT_UNSAFE_LENT_STRIDES): fd's first
 * RT_UNSAFE_STRIDE bytes mapped there, shared by the processes of a
 * cross-process call, tagged as the threads' unsafe stacks are. Only the
 * default domain (the loader) lends. */
long dipc_op_lend_unsafe(const struct dipc_thread *st, uint64_t addr,
                         uint64_t fd) {
  uintptr_t first = dipc_unsafe_lo + (uintptr_t)RT_MAX_THREADS *
                                         RT_UNSAFE_STRIDE;
  if (st->cur_dom != 0)
    return -DIPC_EPERM;
  if (addr < first || addr >= dipc_unsafe_lo + RT_UNSAFE_REGION_SIZE ||
      (addr - first) % RT_UNSAFE_STRIDE || fd > INT32_MAX)
    return -DIPC_EINVAL;
  /* Mapped elsewhere, then moved: under mpk the cookie takes the
   * offset's register of the runtime's own mmap. */
  void *p = dipc_sys_mmap_for_domain(NULL, RT_UNSAFE_STRIDE,
                                     PROT_READ | PROT_WRITE, MAP_SHARED,
                                     (int)fd, 0);
  if (p == MAP_FAILED)
    return -DIPC_EINVAL;
  if (dipc_sys_move((uintptr_t)p, RT_UNSAFE_STRIDE, addr) != 0) {
    dipc_sys(SYS_munmap, (long)p, RT_UNSAFE_STRIDE, 0, 0, 0);
    return -DIPC_ENOMEM;
  }
  if (dipc_tag_pages((void *)addr, RT_UNSAFE_STRIDE, PROT_READ | PROT_WRITE,
                     RT_PKEY_STACK) != 0)
    return -DIPC_ENOMEM;
  dipc_sfi_tag(addr, addr + RT_UNSAFE_STRIDE, DIPC_SFI_TAG_SHARED);
  return 0;
}

long dipc_op_lent_fs(struct dipc_thread *st, uint64_t tcb) {
  /* A TCB in the running domain's own pages, and only for a domain
   * standing for another process, which runs with that process's. */
  if (tcb && (!dipc_domain_is_foreign(st->cur_dom) || tcb + 4096 < tcb ||
              !dipc_domain_owns(st->cur_dom, tcb, tcb + 4096)))
    return -DIPC_EPERM;
  st->lent_fs = tcb; /* installed by dipc_lent_fs_apply */
  return 0;
}

void dipc_lent_fs_apply(struct dipc_thread *st) {
  uintptr_t fs = st->lent_fs ? st->lent_fs : st->fsbase;
  DIPC_CHECK(dipc_sys(SYS_arch_prctl, ARCH_SET_FS, (long)fs, 0, 0, 0) == 0,
             "cannot switch the fs base");
}

int dipc_in_unsafe_region(uintptr_t addr) {
  return addr >= dipc_unsafe_lo &&
         addr - dipc_unsafe_lo < RT_UNSAFE_REGION_SIZE;
}
int dipc_unsafe_overlaps(uintptr_t lo, uintptr_t hi) {
  return lo < dipc_unsafe_lo + RT_UNSAFE_REGION_SIZE && dipc_unsafe_lo < hi;
}

int dipc_thread_unsafe_holds(const struct dipc_thread *st, uintptr_t lo,
                             uintptr_t hi) {
  return lo >= unsafe_lo(st->index) && hi >= lo && hi <= unsafe_top(st->index);
}

/* Slot i's shadow stack: [lo, top), the stride above its guard page. */
static uintptr_t shadow_lo(unsigned i) {
  return dipc_shadow_lo + (uintptr_t)i * RT_SHADOW_STRIDE + RT_SHADOW_GUARD;
}

static uintptr_t *public_usp(struct dipc_thread *st) {
  return (uintptr_t *)((char *)st + DIPC_USP_GS_OFFSET);
}

/* The kernel updates a thread's rseq area (in its TCB, default-domain
 * memory) on preemption with the thread's PKRU; running in another domain
 * that write fails and the kernel kills the thread with SIGSEGV. dIPC
 * threads therefore run without rseq (glibc then asks the kernel for the
 * CPU number instead). */
extern __attribute__((weak)) const ptrdiff_t __rseq_offset;
extern __attribute__((weak)) const unsigned int __rseq_size;
#define RSEQ_SIG_X86 0x53053053

int dipc_glibc_rseq_on(void) { return &__rseq_size && __rseq_size != 0; }

static void drop_rseq(void) {
  if (!dipc_glibc_rseq_on())
    return;
  char *area = (char *)read_fsbase() + __rseq_offset;
  /* glibc registers the 32-byte area but reports the feature size. */
  long r =
      syscall(SYS_rseq, area, 32, DIPC_RSEQ_FLAG_UNREGISTER, RSEQ_SIG_X86);
  if (r != 0)
    r = syscall(SYS_rseq, area, __rseq_size, DIPC_RSEQ_FLAG_UNREGISTER,
                RSEQ_SIG_X86);
  /* EINVAL: not registered (threads created after the main thread dropped
   * it do not register); ENOSYS: no rseq at all; EPERM: the mpk filter's
   * refusal (rseq is denied once it is installed, glibc's registration of
   * a new thread too). */
  DIPC_CHECK(r == 0 || errno == EINVAL || errno == ENOSYS || errno == EPERM,
             "cannot unregister rseq (errno %d)", errno);
}

/* An exited thread's slot is handed out again only once the thread is
 * gone: it may still be leaving its last gate. (A recycled tid only delays
 * the reuse.) */
static int thread_gone(pid_t tid) {
  return syscall(SYS_tgkill, getpid(), tid, 0) == -1 && errno == ESRCH;
}

static void release_slot(struct dipc_thread *st);

/* Slots whose thread is gone become free: exited ones, and live ones whose
 * thread made a runtime call after its exit hook ran (e.g. a trapped
 * munmap in a later TLS destructor, mmcall.c). */
static void reclaim_slots(void) {
  for (unsigned i = 0; i < dipc_max_threads; i++) {
    if (dipc_slot_state[i] == SLOT_FREE ||
        !thread_gone(dipc_thread_slot(i)->tid))
      continue;
    if (dipc_slot_state[i] == SLOT_LIVE)
      release_slot(dipc_thread_slot(i));
    dipc_slot_state[i] = SLOT_FREE;
    n_exited--;
    n_free++;
  }
}

/* An exited slot is reused first (its pages are mapped already); a free
 * one only while more are free than set aside, unless the thread holds a
 * reservation. Returns RT_MAX_THREADS when no slot can be had. */
static unsigned claim_slot(int has_reservation) {
  if (n_exited)
    for (unsigned i = 0; i < dipc_max_threads; i++)
      if (dipc_slot_state[i] == SLOT_EXITED &&
          thread_gone(dipc_thread_slot(i)->tid)) {
        n_exited--;
        if (has_reservation)
          reserved--;
        return i;
      }
  if (n_free <= reserved && !has_reservation)
    reclaim_slots();
  if (n_free > reserved || (has_reservation && n_free)) {
    for (unsigned i = 0; i < dipc_max_threads; i++)
      if (dipc_slot_state[i] == SLOT_FREE) {
        n_free--;
        if (has_reservation)
          reserved--;
        return i;
      }
  }
  return RT_MAX_THREADS;
}

/* OP_THREAD_INIT_RESERVED: a thread whose state was made earlier (a gate
 * it reached before, e.g. a trapped munmap in glibc's thread start) gives
 * its reservation back, so none is left set aside for nobody. */
long dipc_thread_init_reserved_op(struct dipc_thread *st) {
  if (slot_took_reservation[st->index])
    slot_took_reservation[st->index] = 0;
  else if (reserved)
    reserved--;
  return 0;
}

long dipc_thread_reserve_op(int take) {
  if (!take) {
    if (reserved)
      reserved--;
    return 0;
  }
  if (n_free <= reserved)
    reclaim_slots();
  if (n_free <= reserved)
    return -DIPC_ENOSPC;
  reserved++;
  return 0;
}

/* A thread has one state. Gates make one when gs does not lead to the
 * thread's own, and a new state starts in the default domain: a thread
 * that already has one got here because its gs (or fs) base was changed,
 * e.g. by arch_prctl from domain code, to leave its domain. */
static void refuse_second_state(void) {
  pid_t tid = (pid_t)syscall(SYS_gettid);
  for (unsigned i = 0; i < dipc_max_threads; i++)
    if (dipc_slot_state[i] == SLOT_LIVE && dipc_thread_slot(i)->tid == tid) {
      fprintf(stderr, "dipc: security violation: a thread with runtime "
                      "state asked for another (its gs or fs base was "
                      "changed)\n");
      abort();
    }
}

DIPC_HIDDEN extern const char dipc_gate_pku_thread_ret[],
    dipc_gate_nopku_thread_ret[];

struct dipc_thread *dipc_thread_lazy_create(uintptr_t user_rsp, uintptr_t ret,
                                            uint32_t op) {
  /* The loader's threads start with dipc_thread_init_reserved (ebx holds
   * the op in the API gate); any other thread has no reservation. */
  int has_reservation = (ret == (uintptr_t)dipc_gate_pku_thread_ret ||
                         ret == (uintptr_t)dipc_gate_nopku_thread_ret) &&
                        op == OP_THREAD_INIT_RESERVED;
  pthread_once(&exit_key_once, make_exit_key);
  dipc_lock();
  refuse_second_state();
  if (has_reservation && !reserved)
    has_reservation = 0; /* given back meanwhile (a domain's doing) */
  unsigned i = claim_slot(has_reservation);
  if (i < RT_MAX_THREADS)
    slot_took_reservation[i] = (uint8_t)has_reservation;
  /* A thread not started through the loader's pthread_create cannot be
   * refused: it exists already and needs its state for this gate. */
  DIPC_CHECK(i < RT_MAX_THREADS,
             "more than %u threads (DIPC_MAX_THREADS; threads created "
             "through pthread_create get EAGAIN instead)",
             dipc_max_threads);
  struct dipc_thread *st = dipc_thread_slot(i);
  if (!slot_mapped[i]) {
    DIPC_CHECK(dipc_tag_pages(st, SLOT_MAPPED, PROT_READ | PROT_WRITE,
                              RT_PKEY_RUNTIME) == 0,
               "cannot map thread state");
    DIPC_CHECK(dipc_tag_pages((char *)st + DIPC_THREAD_PUBLIC_OFF, RT_PAGE,
                              PROT_READ | PROT_WRITE, RT_PKEY_STACK) == 0,
               "cannot map the public thread page");
    DIPC_CHECK(dipc_tag_pages((void *)unsafe_lo(i),
                              unsafe_top(i) - unsafe_lo(i),
                              PROT_READ | PROT_WRITE, RT_PKEY_STACK) == 0,
               "cannot map the unsafe stack");
    dipc_sfi_tag((uintptr_t)st + DIPC_THREAD_PUBLIC_OFF,
                 (uintptr_t)st + DIPC_THREAD_PUBLIC_OFF + RT_PAGE,
                 DIPC_SFI_TAG_SHARED);
    dipc_sfi_tag(unsafe_lo(i), unsafe_top(i), DIPC_SFI_TAG_SHARED);
    /* The shadow stack and its words: the runtime tag the region has
     * (init.c) keeps them from every domain under `sfi`; under the other
     * backends they protect nothing, and compiled code of any domain
     * writes them. */
    DIPC_CHECK(dipc_tag_pages((char *)st + DIPC_SFI_SSP_PAGE_GS_OFFSET, RT_PAGE,
                              PROT_READ | PROT_WRITE, RT_PKEY_STACK) == 0,
               "cannot map the shadow-stack words");
    DIPC_CHECK(dipc_tag_pages((void *)shadow_lo(i),
                              dipc_shadow_top(i) - shadow_lo(i),
                              PROT_READ | PROT_WRITE, RT_PKEY_STACK) == 0,
               "cannot map the shadow stack");
    slot_mapped[i] = 1;
  } else {
    /* The slot's previous thread is gone: nothing of its unsafe stack
     * reaches the next one. */
    DIPC_CHECK(dipc_sys(SYS_madvise, (long)unsafe_lo(i),
                        (long)(unsafe_top(i) - unsafe_lo(i)), MADV_DONTNEED, 0,
                        0) == 0,
               "cannot clear a recycled unsafe stack");
  }
  memset(st, 0, sizeof *st);
  memset((char *)st + DIPC_THREAD_PUBLIC_OFF, 0, RT_PAGE); /* dipc_errno */
  memset((char *)st + DSTACKS_OFF, 0, RT_MAX_DOMAINS * DS_SIZE);
  dipc_slot_state[i] = SLOT_LIVE;
  st->self = st;
  st->fsbase = read_fsbase();
  st->kcs_base = st->kcs_top = (void *)((char *)st + RT_KCS_OFF);
  st->kcs_limit = st->kcs_base + RT_KCS_ENTRIES;
  st->dstacks = (void *)((char *)st + DSTACKS_OFF);
  st->trusted_sp = (uintptr_t)st + TRUSTED_TOP;
  find_own_stack(user_rsp, &st->own_lo, &st->own_hi);
  st->base_lo = st->own_lo;
  st->base_hi = st->own_hi;
  *public_usp(st) = unsafe_top(i);
  *dipc_slot_word(st, DIPC_SFI_SSP_GS_OFFSET) = dipc_shadow_top(i);
  drop_rseq();
  st->tid = (pid_t)syscall(SYS_gettid);
  st->index = i;
  st->live = 1;
  exit_pending[i] = 0;
  dipc_set_cur_dom(st, 0);
  dipc_domain_make_resident(0);
  st->cur_pkru = dipc_machine.pkru_rw[0];
  DIPC_CHECK(dipc_sys_set_gs(st) == 0, "cannot set the gs base");
  /* For the errno fast path (gate.S): the fs base this slot belongs to. */
  *public_fsbase(st) = real_fsbase();
  pthread_setspecific(exit_key, st);
  dipc_unlock();
  return st;
}

/* Under sfi, the data mirror of the callee stack at lo (dipc/sfi.h). */
static int has_data_mirror(void) {
  return dipc_machine.backend == DIPC_BACKEND_SFI;
}

static uintptr_t data_mirror(uintptr_t lo) {
  return lo - DIPC_SFI_DATA_MIRROR_DELTA;
}

/* Maps the mirror of a stack [lo, lo + len) of dom: 0, or -1 where some
 * other mapping lies (or nothing can: lo below the offset). */
static int map_data_mirror(uintptr_t lo, size_t len, uint32_t dom) {
  if (lo < DIPC_SFI_DATA_MIRROR_DELTA + RT_CALLEE_GUARD)
    return -1;
  void *want = (void *)data_mirror(lo);
  void *m = dipc_sys_mmap(want, len, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
                              MAP_FIXED_NOREPLACE,
                          -1);
  if (m == MAP_FAILED)
    return -1;
  if (m != want) { /* a kernel that took the address as a hint */
    dipc_sys(SYS_munmap, (long)m, (long)len, 0, 0, 0);
    return -1;
  }
  dipc_sfi_tag((uintptr_t)want, (uintptr_t)want + len, dom);
  return 0;
}

static void release_slot(struct dipc_thread *st) {
  dipc_timeout_release(st);
  for (unsigned d = 0; d < RT_MAX_DOMAINS; d++) {
    struct dipc_dstack *ds = &st->dstacks[d];
    if (ds->hi) {
      /* Unmapped first (its stale frames are no one's to read), then what
       * is mapped there next is the default domain's until tagged (under
       * the lock, which orders this with the tagging of new pages). */
      dipc_sys(SYS_munmap, (long)(ds->lo - RT_CALLEE_GUARD),
               (long)(ds->hi - ds->lo + RT_CALLEE_GUARD), 0, 0, 0);
      dipc_sfi_tag(ds->lo, ds->hi, 0);
      if (has_data_mirror()) {
        dipc_sys(SYS_munmap, (long)data_mirror(ds->lo),
                 (long)(ds->hi - ds->lo), 0, 0, 0);
        dipc_sfi_tag(data_mirror(ds->lo), data_mirror(ds->hi), 0);
      }
    }
    *ds = (struct dipc_dstack){0};
  }
  st->live = 0;
  st->fsbase = 0; /* gs may still point here: never matches a TCB */
  __atomic_store_n(public_fsbase(st), 0, __ATOMIC_RELEASE); /* nor here */
  dipc_slot_state[st->index] = SLOT_EXITED;
  n_exited++;
}

void dipc_thread_release(struct dipc_thread *st) {
  release_slot(st);
  pthread_setspecific(exit_key, NULL);
}

void dipc_thread_fault_in_domain(struct dipc_thread *st, uint32_t dom) {
  (void)st;
  dipc_lock();
  dipc_domain_make_resident(dom);
  dipc_unlock();
}

/* The key of dom's pages: its own, or the runtime's while it is parked. */
static int key_of_pages(uint32_t dom) {
  int key = dipc_domain_pkey_of(dom);
  return key >= 0 ? key : RT_PKEY_RUNTIME;
}

/* A callee stack of dom for this thread (dstack.c says how large), under
 * dom's key like its other pages (the lock orders it with re-keying,
 * dipc_thread_rekey_dstacks), above an inaccessible guard; under sfi with
 * its data mirror, for which the stack moves if something is mapped where
 * the mirror goes. Reserved: its pages are committed as they are touched. */
void dipc_thread_alloc_dstack(struct dipc_thread *st, uint32_t dom) {
  dipc_lock();
  size_t stack = dipc_dstack_size(dom), size = RT_CALLEE_GUARD + stack;
  char *p = MAP_FAILED, *hint = NULL;
  for (int tries = 0; tries < 16; tries++) {
    p = dipc_sys_mmap(hint, size, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1);
    DIPC_CHECK(p != MAP_FAILED,
               "cannot map a %zu KiB callee stack of domain %u", stack >> 10,
               dom);
    if (!has_data_mirror() ||
        map_data_mirror((uintptr_t)p + RT_CALLEE_GUARD, stack, dom) == 0)
      break;
    dipc_sys(SYS_munmap, (long)p, (long)size, 0, 0, 0);
    hint = p - size; /* below: the kernel searches down from a hint */
    p = MAP_FAILED;
  }
  DIPC_CHECK(p != MAP_FAILED,
             "cannot map the data mirror of a %zu KiB callee stack of domain "
             "%u (%#llx below the stack: something else is mapped there)",
             stack >> 10, dom, DIPC_SFI_DATA_MIRROR_DELTA);
  DIPC_CHECK(dipc_tag_pages(p + RT_CALLEE_GUARD, stack, PROT_READ | PROT_WRITE,
                            key_of_pages(dom)) == 0,
             "cannot tag a callee stack");
  /* Under sfi this thread's alone, not every thread's of dom (sfi.h). */
  dipc_sfi_tag((uintptr_t)p + RT_CALLEE_GUARD, (uintptr_t)p + size,
               DIPC_SFI_TAG_STACK);
  struct dipc_dstack *ds = &st->dstacks[dom];
  ds->lo = (uintptr_t)p + RT_CALLEE_GUARD;
  ds->hi = ds->cur = (uintptr_t)p + size;
  dipc_unlock();
}

/* ---- threads a named domain creates ---------------------------------------
 * The new thread runs its start routine as the domain that created it,
 * with that domain's rights only (docs/runtime.md §2, "Threads created in
 * a domain"): the loader's pthread_create asks for a start ticket here
 * (OP_THREAD_SPAWN, in the creating domain, which the runtime reads from
 * the thread's state, never from the caller), and the new thread, once its
 * state exists and it runs as the default domain outside any call, trades
 * the ticket for a proxy into the creator's domain at the routine
 * (OP_THREAD_ADOPT) and calls it. Tickets are runtime memory, so no
 * domain can change the routine or the domain a ticket names. */
#define SPAWN_TICKETS RT_MAX_THREADS
#define SPAWN_PROXIES 1024
/* Start and callback proxies are never freed: one domain making them for
 * function after function (a callback proxy for each distinct comparator)
 * must not use up the others'. */
#define SPAWN_PROXIES_PER_DOMAIN 128
struct spawn_ticket {
  uint32_t live, gen, dom, pad;
  uintptr_t arg;
  void *proxy;
};
struct spawn_proxy {
  uint32_t dom, args;
  uintptr_t routine;
  void *proxy;
};
static struct spawn_ticket *tickets;
static struct spawn_proxy *spawn_proxies;
static unsigned n_spawn_proxies;
/* Per domain, the proxy domain whose column says who calls its start and
 * callback proxies: the default domain (a new thread's loader code, libc
 * at thread exit or exit()) and the domain itself (libc calling back a
 * domain that runs exit()). 0: none made yet. */
static uint32_t *callers_of;

/* dom's proxy that runs routine with `args` integer arguments, made once
 * per triple. A fault in the routine returns 0 to its caller
 * (RT_RECOVERY_RETURN0): the loader's start code or libc, which have no
 * landing pad. */
static long spawn_proxy(uint32_t dom, uintptr_t routine, uint32_t args,
                        void **out) {
  unsigned of_dom = 0;
  for (unsigned i = 0; i < n_spawn_proxies; i++) {
    if (spawn_proxies[i].dom == dom && spawn_proxies[i].routine == routine &&
        spawn_proxies[i].args == args) {
      *out = spawn_proxies[i].proxy;
      return 0;
    }
    of_dom += spawn_proxies[i].dom == dom;
  }
  if (of_dom == SPAWN_PROXIES_PER_DOMAIN)
    return -DIPC_ENOSPC;
  /* Under `sfi` the proxy would jump to routine unchecked: only a start
   * instrumented code may call (the call magic before it, a function a
   * call by name reaches, a plain unit's), never libc's own strcpy found
   * with dlvsym. Checked once, when the proxy is made. */
  if (!dipc_sfi_proxy_target_ok(routine))
    return -DIPC_EPERM;
  if (n_spawn_proxies == SPAWN_PROXIES)
    return -DIPC_ENOSPC;
  if (!spawn_proxies) {
    spawn_proxies =
        dipc_alloc_runtime(SPAWN_PROXIES * sizeof *spawn_proxies);
    callers_of = dipc_alloc_runtime(RT_MAX_DOMAINS * sizeof *callers_of);
  }
  if (!callers_of[dom]) {
    uint32_t p;
    int err = dipc_domain_new(&p, 0);
    if (err)
      return err;
    dipc_apl_set(0, p, DIPC_PERM_CALL);
    dipc_apl_set(dom, p, DIPC_PERM_CALL);
    callers_of[dom] = p;
  }
  struct dipc_entry_desc desc = {
      .address = (void *)routine,
      .signature = {.int_args = (uint8_t)args, .int_results = 1}};
  dipc_policy_t policy = 0;
  int err = dipc_proxy_generate_ex(dom, dipc_apl_column(callers_of[dom]), 1,
                                   1, &desc, &policy, out);
  if (err)
    return err;
  spawn_proxies[n_spawn_proxies++] =
      (struct spawn_proxy){dom, args, routine, *out};
  return 0;
}

/* OP_CALLBACK_PROXY: a function a domain hands libc to call later (a
 * thread-specific data destructor, an exit handler, a signal handler),
 * which libc calls from whatever domain then runs (the default domain's
 * thread exit or exit(), the loader's signal handler):
 * the proxy that runs it as the calling domain, or fn itself for the
 * default domain. */
long dipc_callback_proxy_op(struct dipc_thread *st, uintptr_t fn,
                            uint64_t args) {
  if (st->cur_dom == 0)
    return (long)fn;
  if (!fn || args > 4)
    return -DIPC_EINVAL;
  void *proxy;
  long err = spawn_proxy(st->cur_dom, fn, (uint32_t)args, &proxy);
  return err ? err : (long)proxy;
}

/* OP_THREAD_SPAWN: 0 for the default domain (its threads start as it), or
 * a ticket naming the calling thread's domain, the routine and its arg. */
long dipc_thread_spawn_op(struct dipc_thread *st, uintptr_t routine,
                          uintptr_t arg) {
  uint32_t dom = st->cur_dom;
  if (dom == 0)
    return 0;
  if (!routine)
    return -DIPC_EINVAL;
  if (!tickets)
    tickets = dipc_alloc_runtime(SPAWN_TICKETS * sizeof *tickets);
  unsigned i = 0;
  while (i < SPAWN_TICKETS && tickets[i].live)
    i++;
  if (i == SPAWN_TICKETS)
    return -DIPC_ENOSPC;
  void *proxy;
  long err = spawn_proxy(dom, routine, 1, &proxy);
  if (err)
    return err;
  struct spawn_ticket *t = &tickets[i];
  t->live = 1;
  t->gen++;
  t->dom = dom;
  t->arg = arg;
  t->proxy = proxy;
  return (long)(((uint64_t)t->gen << 16) | (i + 1));
}

static struct spawn_ticket *ticket_of(uint64_t ticket) {
  uint64_t i = (ticket & 0xffff) - 1;
  if (!tickets || i >= SPAWN_TICKETS || !tickets[i].live ||
      tickets[i].gen != (uint32_t)(ticket >> 16) || ticket >> 48)
    return NULL;
  return &tickets[i];
}

/* OP_THREAD_ADOPT: only a thread running as the default domain outside any
 * call (a new thread in the loader's start code) takes a ticket: a domain
 * taking one would run another domain's routine. */
long dipc_thread_adopt_op(struct dipc_thread *st, uint64_t ticket,
                          uint64_t *out) {
  if (st->cur_dom != 0 || st->kcs_top != st->kcs_base)
    return -DIPC_EPERM;
  struct spawn_ticket *t = ticket_of(ticket);
  if (!t)
    return -DIPC_EINVAL;
  out[0] = (uint64_t)t->proxy;
  out[1] = t->arg;
  t->live = 0;
  return 0;
}

/* OP_THREAD_SPAWN_DROP: the creating domain's pthread_create failed. */
long dipc_thread_spawn_drop_op(struct dipc_thread *st, uint64_t ticket) {
  struct spawn_ticket *t = ticket_of(ticket);
  if (!t || t->dom != st->cur_dom)
    return -DIPC_EINVAL;
  t->live = 0;
  return 0;
}

/* pthread_exit in a thread a domain created (the loader's pthread_exit):
 * glibc's unwinding would leave the proxy's call without popping it, and
 * the thread would end as the domain. Instead the runtime keeps the value
 * and the loader ends the call like a crash of the routine, whose proxy
 * returns to the loader's start code as the default domain; that takes the
 * value and ends the thread. Only the start routine's own call (the one
 * KCS entry, pushed by a start proxy) ends so: deeper, pthread_exit is the
 * callee's crash and its caller gets DIPC_EFAULT. */
static int is_spawn_proxy(uintptr_t proxy) {
  for (unsigned i = 0; i < n_spawn_proxies; i++)
    if ((uintptr_t)spawn_proxies[i].proxy == proxy)
      return 1;
  return 0;
}

long dipc_thread_exit_value_op(struct dipc_thread *st, int set,
                               uintptr_t value, uint64_t *out) {
  unsigned i = st->index;
  if (!set) {
    if (st->cur_dom != 0 || st->kcs_top != st->kcs_base)
      return -DIPC_EPERM;
    long had = exit_pending[i];
    out[0] = had ? exit_value[i] : 0;
    exit_pending[i] = 0;
    return had;
  }
  if (st->cur_dom == 0)
    return -DIPC_EPERM; /* glibc's pthread_exit does it */
  if (st->kcs_top != st->kcs_base + 1 || st->kcs_base->caller_dom != 0 ||
      !is_spawn_proxy(st->kcs_base->proxy))
    return -DIPC_EINVAL;
  exit_value[i] = value;
  exit_pending[i] = 1;
  return 0;
}

/* ---- fork ----------------------------------------------------------------
 * The forking thread takes the boot lock (gate.S: a thread creating its
 * state holds it, then dipc_lock) and then dipc_lock, so that neither is
 * held by a thread the child will not have. glibc takes its own locks
 * (malloc, stdio) after the prepare handlers, so a holder of ours can
 * still finish. */
DIPC_HIDDEN extern uint32_t dipc_boot_lock;

void dipc_fork_prepare(void) {
  while (__atomic_exchange_n(&dipc_boot_lock, 1, __ATOMIC_ACQUIRE))
    sched_yield(); /* as gate.S's waiters do */
  dipc_lock();
}

void dipc_fork_parent(void) {
  dipc_unlock();
  __atomic_store_n(&dipc_boot_lock, 0, __ATOMIC_RELEASE);
}

/* Only the forking thread exists in the child: the other states are
 * released (their callee stacks unmapped, so their keys are not held) and
 * their slots free; reservations belonged to pthread_create calls of
 * other threads. The forking thread keeps its state under its new tid. */
void dipc_fork_child(struct dipc_thread *self) {
  /* First: the lock knows its holder by this tid. */
  self->tid = (pid_t)syscall(SYS_gettid);
  dipc_lock_reinit();
  dipc_lock();
  for (unsigned i = 0; i < dipc_max_threads; i++) {
    if (i == self->index || dipc_slot_state[i] == SLOT_FREE)
      continue;
    if (dipc_slot_state[i] == SLOT_LIVE)
      release_slot(dipc_thread_slot(i));
    dipc_slot_state[i] = SLOT_FREE;
  }
  n_free = dipc_max_threads - 1;
  n_exited = 0;
  reserved = 0;
  self->timer = 0; /* timers are not inherited */
  self->timeout_ns = 0;
  dipc_domain_heaps_release(0);
  __atomic_store_n(&dipc_boot_lock, 0, __ATOMIC_RELEASE);
}
