/* thread.c - per-thread emulated CODOMs state, created lazily by the first
 * gate or proxy a thread runs. Each thread's state is one slot of the
 * thread region, tagged with the runtime key:
 *
 *   +0      struct dipc_thread (registers, capability registers, DCS)
 *   +16K    KCS, RT_KCS_ENTRIES entries
 *   +112K   callee-stack records, one per domain
 *   +144K   trusted stack (gates run C code here), top at +208K
 *   +252K   public page (dipc/abi.h): dipc_errno, and the owner's fs base
 *           for the errno fast path; tagged with the stack key, so that
 *           caller stubs in any domain write dipc_errno through gs
 *
 * The thread finds it through the gs base (set once per thread) and checks
 * it against the thread's TCB (fs:0), so a state inherited through clone()
 * is never mistaken for the thread's own. The thread's own stack is tagged
 * with the stack key, which every domain's image enables; its TCB and
 * static TLS stay default-domain memory (key 0) on every thread. */
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

#define SLOT_MAPPED (256 * 1024)
#define KCS_OFF (16 * 1024)
#define DSTACKS_OFF (112 * 1024)
#define TRUSTED_TOP (208 * 1024)
_Static_assert(sizeof(struct dipc_thread) <= KCS_OFF, "thread state size");
_Static_assert(KCS_OFF + RT_KCS_ENTRIES * K_SIZE <= DSTACKS_OFF, "KCS size");
_Static_assert(DSTACKS_OFF + RT_MAX_DOMAINS * DS_SIZE + RT_TRUSTED_STACK <=
                   TRUSTED_TOP,
               "trusted stack size");
_Static_assert(TRUSTED_TOP <= DIPC_THREAD_PUBLIC_OFF &&
                   DIPC_THREAD_PUBLIC_OFF + RT_PAGE <= SLOT_MAPPED,
               "public thread page");
_Static_assert(DIPC_FSBASE_GS_OFFSET == DIPC_THREAD_PUBLIC_OFF + 8 &&
                   DIPC_ERRNO_GS_OFFSET + sizeof(int) <= DIPC_FSBASE_GS_OFFSET,
               "fs base copy in the public page, after dipc_errno");
_Static_assert((RT_THREAD_STRIDE & (RT_THREAD_STRIDE - 1)) == 0 &&
                   SLOT_MAPPED <= RT_THREAD_STRIDE,
               "slots start at multiples of a power of two");

enum { SLOT_FREE, SLOT_LIVE, SLOT_EXITED };
static uint8_t slot_state[RT_MAX_THREADS];
static uint8_t slot_mapped[RT_MAX_THREADS];
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

struct dipc_thread *dipc_thread_slot(unsigned i) {
  return (struct dipc_thread *)(dipc_threads_lo +
                                (uintptr_t)i * RT_THREAD_STRIDE);
}

const struct dipc_thread *dipc_thread_live(unsigned i) {
  return slot_state[i] == SLOT_LIVE ? dipc_thread_slot(i) : NULL;
}

static void thread_exit_hook(void *st) {
  (void)st;
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

/* Bytes of static TLS glibc reserves below the TCB of every thread, the
 * TCB itself and the surplus for later dlopens included. Fixed at start;
 * `_dl_get_tls_static_info` is ld.so's (GLIBC_PRIVATE), read the way
 * LLVM's sanitizers read it. */
static size_t static_tls_size;

void dipc_thread_layout_init(void) {
  void (*info)(size_t *, size_t *) = (void (*)(size_t *, size_t *))dlsym(
      RTLD_DEFAULT, "_dl_get_tls_static_info");
  DIPC_CHECK(info, "cannot find _dl_get_tls_static_info (glibc's ld.so)");
  size_t align;
  info(&static_tls_size, &align);
  DIPC_CHECK(static_tls_size > 0, "no static TLS size");
}

/* glibc on x86-64 (TLS variant II) puts a pthread's TCB at the fs base near
 * the top of its stack block and the static TLS blocks just below it, all
 * within static_tls_size bytes below the end of the TCB: the stack proper
 * ends under fs - static_tls_size. Returns the first page at or above
 * which the block holds TLS or TCB, or hi if the TCB is elsewhere. */
static uintptr_t tls_floor(uintptr_t lo, uintptr_t hi) {
  uintptr_t fs = read_fsbase();
  if (fs < lo || fs >= hi)
    return hi;
  DIPC_CHECK(fs - lo > static_tls_size, "static TLS fills the stack block");
  return (fs - static_tls_size) & ~(RT_PAGE - 1);
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

DIPC_EXPORT void *dipc_thread_stack_top(void) {
  if (is_main_thread())
    return NULL;
  uintptr_t lo, hi;
  pthread_stack(&lo, &hi);
  uintptr_t top = tls_floor(lo, hi);
  return top == hi ? NULL : (void *)top;
}

/* The thread's own stack: bounds for the P2 check and pages to tag with
 * the stack key; [*tag_hi, *hi) is the TCB and static TLS (key 0). */
static void find_own_stack(uintptr_t rsp, uintptr_t *lo, uintptr_t *hi,
                           uintptr_t *tag_lo, uintptr_t *tag_hi) {
  if (is_main_thread()) {
    /* Main thread: the growing [stack] mapping holding rsp. */
    FILE *f = fopen("/proc/self/maps", "r");
    DIPC_CHECK(f, "cannot read /proc/self/maps");
    char line[512];
    unsigned long s = 0, e = 0;
    while (fgets(line, sizeof line, f))
      if (sscanf(line, "%lx-%lx", &s, &e) == 2 && rsp >= s && rsp < e)
        break;
    fclose(f);
    DIPC_CHECK(rsp >= s && rsp < e, "no mapping holds the main stack");
    struct rlimit rl;
    uintptr_t max = 64UL << 20;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur < max)
      max = rl.rlim_cur;
    *hi = *tag_hi = e;
    *tag_lo = s;
    *lo = e - max < s ? e - max : s;
    return;
  }
  pthread_stack(lo, hi);
  DIPC_CHECK(rsp >= *lo && rsp < *hi, "rsp %#lx outside the thread's stack",
             (unsigned long)rsp);
  *tag_lo = *lo;
  /* Frames in the pages the stack shares with the TLS would be out of
   * every domain's reach: a thread that already runs there (one the loader
   * did not start, dipc_thread_stack_top) keeps its whole block under the
   * stack key, TCB included, as domain code may use those frames. */
  *tag_hi = tls_floor(*lo, *hi);
  if (rsp >= *tag_hi)
    *tag_hi = *hi;
}

/* Stack key below tag_hi; the TCB and TLS above it are default-domain
 * memory (also undoing the tags of an earlier thread on a cached stack). */
static void tag_own_stack(uintptr_t lo, uintptr_t tag_hi, uintptr_t hi) {
  if (dipc_machine.backend != DIPC_BACKEND_MPK)
    return;
  DIPC_CHECK(dipc_tag_pages((void *)lo, tag_hi - lo, PROT_READ | PROT_WRITE,
                            RT_PKEY_STACK) == 0,
             "cannot tag the thread's stack");
  DIPC_CHECK(tag_hi == hi || dipc_tag_pages((void *)tag_hi, hi - tag_hi,
                                            PROT_READ | PROT_WRITE, 0) == 0,
             "cannot tag the thread's TLS");
}

/* The kernel updates a thread's rseq area (in its TCB, default-domain
 * memory) on preemption with the thread's PKRU; running in another domain
 * that write fails and the kernel kills the thread with SIGSEGV. dIPC
 * threads therefore run without rseq (glibc then asks the kernel for the
 * CPU number instead). */
extern __attribute__((weak)) const ptrdiff_t __rseq_offset;
extern __attribute__((weak)) const unsigned int __rseq_size;
#define RSEQ_SIG_X86 0x53053053
#define RSEQ_FLAG_UNREGISTER 1

static void drop_rseq(void) {
  if (!&__rseq_size || __rseq_size == 0)
    return;
  char *area = (char *)read_fsbase() + __rseq_offset;
  /* glibc registers the 32-byte area but reports the feature size. */
  long r = syscall(SYS_rseq, area, 32, RSEQ_FLAG_UNREGISTER, RSEQ_SIG_X86);
  if (r != 0)
    r = syscall(SYS_rseq, area, __rseq_size, RSEQ_FLAG_UNREGISTER,
                RSEQ_SIG_X86);
  /* EINVAL: not registered (threads created after the main thread dropped
   * it do not register); ENOSYS: no rseq at all. */
  DIPC_CHECK(r == 0 || errno == EINVAL || errno == ENOSYS,
             "cannot unregister rseq (errno %d)", errno);
}

/* An exited thread's slot is handed out again only once the thread is
 * gone: it may still be leaving its last gate. (A recycled tid only delays
 * the reuse.) */
static int thread_gone(pid_t tid) {
  return syscall(SYS_tgkill, getpid(), tid, 0) == -1 && errno == ESRCH;
}

static unsigned claim_slot(void) {
  for (unsigned i = 0; i < RT_MAX_THREADS; i++)
    if (slot_state[i] == SLOT_FREE)
      return i;
  for (unsigned i = 0; i < RT_MAX_THREADS; i++)
    if (slot_state[i] == SLOT_EXITED && thread_gone(dipc_thread_slot(i)->tid))
      return i;
  dipc_fatal(__FILE__, __LINE__, "more than %d threads", RT_MAX_THREADS);
}

/* A thread has one state. Gates make one when gs does not lead to the
 * thread's own, and a new state starts in the default domain: a thread
 * that already has one got here because its gs (or fs) base was changed,
 * e.g. by arch_prctl from domain code, to leave its domain. */
static void refuse_second_state(void) {
  pid_t tid = (pid_t)syscall(SYS_gettid);
  for (unsigned i = 0; i < RT_MAX_THREADS; i++)
    if (slot_state[i] == SLOT_LIVE && dipc_thread_slot(i)->tid == tid) {
      fprintf(stderr, "dipc: security violation: a thread with runtime "
                      "state asked for another (its gs or fs base was "
                      "changed)\n");
      abort();
    }
}

struct dipc_thread *dipc_thread_lazy_create(uintptr_t user_rsp) {
  pthread_once(&exit_key_once, make_exit_key);
  dipc_lock();
  refuse_second_state();
  unsigned i = claim_slot();
  struct dipc_thread *st = dipc_thread_slot(i);
  if (!slot_mapped[i]) {
    DIPC_CHECK(dipc_tag_pages(st, SLOT_MAPPED, PROT_READ | PROT_WRITE,
                              RT_PKEY_RUNTIME) == 0,
               "cannot map thread state");
    DIPC_CHECK(dipc_tag_pages((char *)st + DIPC_THREAD_PUBLIC_OFF, RT_PAGE,
                              PROT_READ | PROT_WRITE, RT_PKEY_STACK) == 0,
               "cannot map the public thread page");
    slot_mapped[i] = 1;
  }
  memset(st, 0, sizeof *st);
  memset((char *)st + DIPC_THREAD_PUBLIC_OFF, 0, RT_PAGE); /* dipc_errno */
  memset((char *)st + DSTACKS_OFF, 0, RT_MAX_DOMAINS * DS_SIZE);
  slot_state[i] = SLOT_LIVE;
  st->self = st;
  st->fsbase = read_fsbase();
  st->kcs_base = st->kcs_top = (void *)((char *)st + KCS_OFF);
  st->kcs_limit = st->kcs_base + RT_KCS_ENTRIES;
  st->dstacks = (void *)((char *)st + DSTACKS_OFF);
  st->trusted_sp = (uintptr_t)st + TRUSTED_TOP;
  find_own_stack(user_rsp, &st->own_lo, &st->own_hi, &st->tag_lo, &st->tag_hi);
  st->stack_lo = st->own_lo;
  st->stack_hi = st->own_hi;
  tag_own_stack(st->tag_lo, st->tag_hi, st->own_hi);
  drop_rseq();
  st->tid = (pid_t)syscall(SYS_gettid);
  st->index = i;
  st->live = 1;
  st->cur_dom = 0;
  dipc_domain_make_resident(0);
  st->cur_pkru = dipc_machine.pkru_rw[0];
  DIPC_CHECK(dipc_sys_set_gs(st) == 0, "cannot set the gs base");
  /* For the errno fast path (gate.S): the fs base this slot belongs to. */
  *public_fsbase(st) = real_fsbase();
  pthread_setspecific(exit_key, st);
  dipc_unlock();
  return st;
}

void dipc_thread_release(struct dipc_thread *st) {
  for (unsigned d = 0; d < RT_MAX_DOMAINS; d++) {
    struct dipc_dstack *ds = &st->dstacks[d];
    if (ds->hi)
      munmap((void *)(ds->lo - RT_PAGE), ds->hi - ds->lo + RT_PAGE);
    *ds = (struct dipc_dstack){0};
  }
  /* glibc may hand the stack block to a thread that never enters dIPC. */
  if (dipc_machine.backend == DIPC_BACKEND_MPK && st->tag_hi > st->tag_lo)
    dipc_tag_pages((void *)st->tag_lo, st->tag_hi - st->tag_lo,
                   PROT_READ | PROT_WRITE, 0);
  st->live = 0;
  st->fsbase = 0; /* gs may still point here: never matches a TCB */
  __atomic_store_n(public_fsbase(st), 0, __ATOMIC_RELEASE); /* nor here */
  slot_state[st->index] = SLOT_EXITED;
  pthread_setspecific(exit_key, NULL);
}

void dipc_thread_fault_in_domain(struct dipc_thread *st, uint32_t dom) {
  (void)st;
  dipc_lock();
  dipc_domain_make_resident(dom);
  dipc_unlock();
}

void dipc_thread_alloc_dstack(struct dipc_thread *st, uint32_t dom) {
  size_t size = RT_CALLEE_STACK + RT_PAGE; /* + guard page */
  char *p = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  DIPC_CHECK(p != MAP_FAILED, "cannot map a callee stack");
  DIPC_CHECK(dipc_tag_pages(p + RT_PAGE, RT_CALLEE_STACK,
                            PROT_READ | PROT_WRITE, RT_PKEY_STACK) == 0,
             "cannot tag a callee stack");
  struct dipc_dstack *ds = &st->dstacks[dom];
  ds->lo = (uintptr_t)p + RT_PAGE;
  ds->hi = ds->cur = (uintptr_t)p + size;
}

int dipc_threads_using_key(int key) {
  for (unsigned i = 0; i < RT_MAX_THREADS; i++) {
    if (slot_state[i] != SLOT_LIVE)
      continue;
    uint32_t image =
        __atomic_load_n(&dipc_thread_slot(i)->cur_pkru, __ATOMIC_SEQ_CST);
    if (!((image >> (2 * key)) & 1))
      return 1;
  }
  return 0;
}
