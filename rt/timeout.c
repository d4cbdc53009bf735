/* timeout.c - leaving cross-domain calls other than by returning
 * (docs/loader.md, "Signals, jumps and time-outs"):
 *  - signal frames: the loader's front handler enters __dipc_signal_enter
 *    before a program's handler runs and __dipc_signal_leave after it. A
 *    marker on the KCS saves what the interrupted code was running as (a
 *    free slot below it keeps an entry a proxy popped but still reads); the
 *    handler runs as the default domain, whose handler it is, on the
 *    loader's alternate stack, and may call across domains;
 *  - jumps: the loader's longjmp family asks dipc_op_unwind_jump to pop the
 *    KCS entries (calls and signal markers) a jump to a frame leaves;
 *  - time-outs: a per-thread POSIX timer sends DIPC_TIMEOUT_SIGNAL; the
 *    loader's handler enters __dipc_timeout_tick, which unwinds an
 *    outermost call running past the thread's bound like a callee fault,
 *    with DIPC_ETIMEDOUT. */
#define _GNU_SOURCE
#include <dipc.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "internal.h"

#define RED_ZONE 128

/* ---- signal frames ------------------------------------------------------ */

/* [lo, hi): the alternate stack the handler runs on (the kernel saved its
 * bounds in uc), holding the handler's frame and uc, the default domain's
 * memory. */
static int handler_stack(const ucontext_t *uc, uintptr_t *lo, uintptr_t *hi) {
  *lo = (uintptr_t)uc->uc_stack.ss_sp;
  *hi = *lo + uc->uc_stack.ss_size;
  uintptr_t here = (uintptr_t)__builtin_frame_address(0);
  return *hi > *lo && here > *lo && here < *hi && (uintptr_t)uc > *lo &&
         (uintptr_t)(uc + 1) <= *hi &&
         dipc_right_on(0, *lo, *hi, 1) == DIPC_PERM_OWNER;
}

int dipc_on_signal_stack(uintptr_t sp, const void *altv) {
  const stack_t *alt = altv;
  uintptr_t size = alt->ss_size > DIPC_ALTSTACK_SIZE ? alt->ss_size
                                                     : DIPC_ALTSTACK_SIZE;
  return !(alt->ss_flags & SS_DISABLE) && sp >= (uintptr_t)alt->ss_sp &&
         sp - (uintptr_t)alt->ss_sp < size;
}

/* A signal's handler entering or leaving its frame marks the thread in a
 * gate meanwhile: a signal arriving then (its handler nested in this one)
 * finds the KCS half-written and is not framed. */
static void frame_work_begin(struct dipc_thread *st) {
  st->in_gate = 1;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static int frame_work_end(struct dipc_thread *st, int framed) {
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  st->in_gate = 0;
  return framed;
}

static int signal_enter(struct dipc_thread *st, ucontext_t *uc);

DIPC_HIDDEN int dipc_signal_enter(struct dipc_thread *st, ucontext_t *uc);
int dipc_signal_enter(struct dipc_thread *st, ucontext_t *uc) {
  /* Interrupted inside a gate or slow path (its trusted stack and saved
   * return are in use): the handler cannot call across domains. */
  if (!uc || st->in_gate || st->kcs_top + 2 > st->kcs_limit)
    return 0;
  frame_work_begin(st);
  return frame_work_end(st, signal_enter(st, uc));
}

static int signal_enter(struct dipc_thread *st, ucontext_t *uc) {
  uintptr_t lo, hi;
  if (dipc_lock_unless_mine() != 0) /* it interrupted the runtime */
    return 0;
  int ok = handler_stack(uc, &lo, &hi);
  dipc_unlock();
  if (!ok)
    return 0;
  uintptr_t rsp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
  struct dipc_kcs_entry *m = st->kcs_top + 1;
  memset(m, 0, sizeof *m);
  m->caller_dom = st->cur_dom;
  m->proxy = K_SIGNAL_MARK;
  m->caller_rsp = rsp;
  m->ret = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
  m->recovery = st->recovery; /* armed by the interrupted code */
  st->recovery = NULL;
  m->base_lo = st->base_lo;
  m->base_hi = st->base_hi;
  m->usp = *(uintptr_t *)((char *)st + DIPC_USP_GS_OFFSET);
  dipc_shadow_stack_save(st, m);
  m->dcs_base = st->dcs_base;
  m->dcs_top = st->dcs_top;
  m->cur_ds = st->cur_ds;
  if (st->cur_ds) {
    /* The handler's calls into this callee stack's domain go below the
     * interrupted frames (or, interrupted in a proxy before its switch,
     * well below where that proxy's callee starts). */
    struct dipc_dstack *ds = st->cur_ds;
    m->ds_saved = ds->cur;
    uintptr_t below = rsp >= ds->lo && rsp < ds->hi ? rsp - RED_ZONE
                                                     : ds->cur - 4096;
    if (below < ds->cur)
      ds->cur = below & ~(uintptr_t)15;
  }
  st->cur_ds = NULL;
  st->base_lo = lo;
  st->base_hi = hi;
  dipc_set_cur_dom(st, 0);
  st->kcs_top = m + 1;
  dipc_lock();
  dipc_domain_make_resident(0);
  st->cur_pkru = dipc_machine.pkru_rw[0];
  dipc_unlock();
  return 1;
}

/* Pops the signal marker on top of st's KCS. */
static void signal_pop(struct dipc_thread *st) {
  struct dipc_kcs_entry *m = st->kcs_top - 1;
  if (m->cur_ds)
    m->cur_ds->cur = m->ds_saved;
  st->cur_ds = m->cur_ds;
  st->base_lo = m->base_lo;
  st->base_hi = m->base_hi;
  *(uintptr_t *)((char *)st + DIPC_USP_GS_OFFSET) = m->usp;
  dipc_shadow_stack_restore(st, m);
  st->dcs_base = m->dcs_base;
  st->dcs_top = m->dcs_top;
  st->recovery = m->recovery;
  dipc_set_cur_dom(st, m->caller_dom);
  st->kcs_top = m - 1; /* the free slot below it */
  dipc_scratch_unwind(st, UINT32_MAX);
}

DIPC_HIDDEN int dipc_signal_leave(struct dipc_thread *st, ucontext_t *uc);
int dipc_signal_leave(struct dipc_thread *st, ucontext_t *uc) {
  if (!uc || st->in_gate)
    return 0;
  frame_work_begin(st);
  struct dipc_kcs_entry *m = st->kcs_top - 1;
  DIPC_CHECK(st->kcs_top - st->kcs_base >= 2 && dipc_kcs_is_mark(m) &&
                 m->caller_rsp == (uintptr_t)uc->uc_mcontext.gregs[REG_RSP],
             "a signal handler returned inside a cross-domain call it made");
  signal_pop(st);
  dipc_lock();
  dipc_domain_make_resident(st->cur_dom);
  st->cur_pkru = dipc_machine.pkru_rw[st->cur_dom];
  dipc_unlock();
  return frame_work_end(st, 1);
}

/* ---- jumps -------------------------------------------------------------- */

static int trusted(uint32_t dom) {
  return dom == 0 || dipc_apl_get(dom, 0) >= DIPC_PERM_WRITE;
}

/* A jump (longjmp family) to a frame whose stack pointer is sp: pops the
 * KCS entries the jump leaves. Walking down from the newest, the target
 * belongs to the level above entry e when it lies in the stack that level
 * runs on, below e's frame if e was made from that stack too (a call
 * without a stack switch); else the jump leaves e. Only for the default
 * domain and domains trusted with its memory: another domain would resume
 * its caller at a context of its choosing. But any domain may leave calls
 * it made into itself alone (a comparator's callback proxy, under `sfi`,
 * out of which it jumps back to its own setjmp): it resumes itself. 0
 * when the jump may go on,
 * -DIPC_EPERM refused (the jump leaves a call of an untrusted domain),
 * -DIPC_EINVAL refused (it lands outside the stack it would run on, or in
 * a frame of a domain other than the default one). Under dipc_lock (an API
 * operation). */
long dipc_op_unwind_jump(struct dipc_thread *st, uintptr_t sp) {
  struct dipc_kcs_entry *e = st->kcs_top - 1, *last = NULL;
  uintptr_t lo, hi, elo, ehi, base[2] = {st->base_lo, st->base_hi};
  dipc_stack_in_use(st, &lo, &hi);
  uint32_t dom = st->cur_dom;
  int into_itself = 1; /* every entry left: cur_dom calling itself */
  while (e >= st->kcs_base) {
    dipc_kcs_walk_stack(e, base, &elo, &ehi);
    int same = elo == lo && ehi == hi;
    if (sp >= lo && sp < hi && (!same || sp < e->caller_rsp))
      break;
    last = e;
    into_itself &= !dipc_kcs_is_mark(e) && e->caller_dom == st->cur_dom &&
                   e->callee_dom == st->cur_dom;
    lo = elo, hi = ehi, dom = e->caller_dom;
    e = dipc_kcs_below(e);
  }
  if (!last)
    return sp >= lo && sp < hi ? 0 : -DIPC_EINVAL;
  if (!into_itself && !trusted(st->cur_dom))
    return -DIPC_EPERM;
  if (sp < lo || sp >= hi || (dom != 0 && !into_itself))
    return -DIPC_EINVAL;
  while (st->kcs_top - 1 >= last) {
    if (dipc_kcs_is_mark(st->kcs_top - 1))
      signal_pop(st);
    else
      dipc_kcs_pop(st);
  }
  st->recovery = NULL; /* armed by a frame the jump leaves */
  dipc_domain_make_resident(st->cur_dom);
  st->cur_pkru = dipc_machine.pkru_rw[st->cur_dom];
  return 0;
}

/* ---- time-outs ---------------------------------------------------------- */

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The loader handles DIPC_TIMEOUT_SIGNAL (without it the signal would end
 * the process). */
static int loader_handles_timeouts(void) {
  struct {
    void *handler;
    unsigned long flags;
    void *restorer;
    uint64_t mask;
  } k;
  return syscall(SYS_rt_sigaction, DIPC_TIMEOUT_SIGNAL, NULL, &k, 8) == 0 &&
         k.handler != SIG_DFL && k.handler != SIG_IGN;
}

static int set_timer(int timer, uint64_t period) {
  struct itimerspec it = {
      .it_interval = {(time_t)(period / 1000000000u),
                      (long)(period % 1000000000u)},
  };
  it.it_value = it.it_interval;
  return (int)syscall(SYS_timer_settime, timer, 0, &it, NULL);
}

long dipc_op_set_call_timeout(struct dipc_thread *st, uint64_t ns) {
  /* The outermost caller's bound: a callee lifting it would escape it. */
  if (st->kcs_top != st->kcs_base)
    return -DIPC_EPERM;
  if (ns && (ns < 100000 || !loader_handles_timeouts()))
    return -DIPC_EINVAL;
  if (ns && !st->timer) {
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = DIPC_TIMEOUT_SIGNAL;
    ev._sigev_un._tid = st->tid;
    int id;
    if (syscall(SYS_timer_create, CLOCK_MONOTONIC, &ev, &id) != 0)
      return errno == EAGAIN ? -DIPC_ENOSPC : -DIPC_ENOMEM;
    st->timer = id + 1;
  }
  /* Checked four times per bound: a call is unwound between ns and
   * 1.5 ns after it started (and as soon as it can be after that). */
  if (st->timer && set_timer(st->timer - 1, ns / 4) != 0)
    return -DIPC_EINVAL;
  st->timeout_ns = ns;
  st->watch_seq = st->call_seq;
  return 0;
}

void dipc_timeout_release(struct dipc_thread *st) {
  if (st->timer)
    syscall(SYS_timer_delete, st->timer - 1);
  st->timer = 0;
  st->timeout_ns = 0;
}

/* Whether st's outermost call, watched since the last tick, has run past
 * the time-out; a new outermost call starts being watched (when `watch`). */
static int call_overdue(struct dipc_thread *st, int watch) {
  if (!st->timeout_ns || st->kcs_top == st->kcs_base)
    return 0;
  uint64_t now = now_ns();
  if (st->call_seq != st->watch_seq) { /* a new outermost call */
    if (watch) {
      st->watch_seq = st->call_seq;
      st->watch_since = now;
    }
    return 0;
  }
  return now - st->watch_since >= st->timeout_ns;
}

DIPC_EXPORT int __dipc_timeout_due(void) {
  /* The thread's state as the gates find it: also on a thread that
   * borrowed another process's TCB (the loader's xproc_enter.S). */
  struct dipc_thread *st = dipc_current_thread();
  return st && call_overdue(st, 0);
}

DIPC_HIDDEN int dipc_timeout_tick(struct dipc_thread *st, ucontext_t *uc);
int dipc_timeout_tick(struct dipc_thread *st, ucontext_t *uc) {
  if (!uc || !call_overdue(st, 1))
    return 0;
  /* Not now (the next tick tries again): in the runtime, or in a signal
   * handler (the loader's or the program's, which may call across
   * domains itself). Handlers run on the alternate stack, whose bounds
   * the kernel saved in uc (its ss_flags do not say whether the
   * interrupted code was on it). */
  uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
  if ((uc->uc_stack.ss_flags & SS_ONSTACK) ||
      dipc_on_signal_stack(sp, &uc->uc_stack) ||
      !dipc_context_usable(st, uc))
    return 0;
  for (struct dipc_kcs_entry *e = st->kcs_top - 1; e >= st->kcs_base; e--)
    if (dipc_kcs_is_mark(e))
      return 0;
  struct dipc_kcs_entry *outer = st->kcs_base;
  if (!dipc_recovery_buffer_ok(st, outer))
    return 0;
  dipc_lock();
  while (st->kcs_top > st->kcs_base)
    dipc_kcs_pop(st);
  st->recovery = NULL;
  dipc_unlock();
  return dipc_resume_caller(st, outer, uc, DIPC_ETIMEDOUT);
}
