/* recovery.c - cross-domain fault recovery (paper §5.2.1, docs/abi.md §4).
 *
 * The loader's signal handler calls __dipc_recover_from_fault(uc) (a gate,
 * gate.S). If the thread was running in the callee of the newest KCS entry,
 * dipc_recover pops that entry, restores the caller's domain, stack bounds,
 * callee stacks, unsafe stack pointer, DCS bounds and callee-saved
 * registers, and rewrites uc:
 *  - setjmp style (the entry carries the buffer __dipc_setjmp_arm armed):
 *    rbp = buf[0], rip = buf[1], rsp = buf[2];
 *  - try style: rsp = R (the caller's return-address slot, restored) and
 *    rip = __dipc_raise_trampoline, which raises a foreign exception whose
 *    only frame above the caller is the trampoline. A call with stack
 *    arguments moved rsp down by their area around its `call`, which the
 *    caller's CFI does not say: the return address then goes at the top of
 *    that (dead) area instead, where rsp is the caller's own again;
 *  - a call through an entry's address (RT_RECOVERY_RETURN0, anycall.c):
 *    the call returns 0 to its return address.
 * Either way dipc_errno says why (failure_code).
 * The resumed context gets the caller's PKRU through the signal frame's
 * XSAVE area. __dipc_fault_landed finishes a try-style recovery. */
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <cpuid.h>
#include <dlfcn.h>
#include <dipc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unwind.h>

#include "internal.h"

/* Runs in the caller's domain after a proxy ran on this thread, so gs is
 * the thread's own state and dipc_errno is in its public page. The only
 * exceptions that reach a caller stub's landing pad are the runtime's
 * fault objects (a callee's own exceptions end at its callee stub), which
 * have no cleanup: nothing to delete. Any other pointer is a domain's
 * forgery, whose cleanup function libdipc would call unchecked. */
DIPC_EXPORT void __dipc_fault_landed(void *exception) { (void)exception; }

/* The callee stub's trap after it caught an escaping exception
 * (CalleeStubs.cpp): a 16-aligned ud2 and the marker, in one 16-byte block
 * (so one page). Anyone can execute it; it only picks the code a crash
 * there would report anyway. */
static const uint8_t exception_trap[] = {0x0f, 0x0b, 'D', 'I', 'P', 'C',
                                         'E', 'X', 'C', 'P'};

static int failure_code(const ucontext_t *uc) {
  uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
  if (pc % 16 || uc->uc_mcontext.gregs[REG_TRAPNO] != 6 /* #UD */)
    return DIPC_EFAULT;
  return memcmp((const void *)pc, exception_trap, sizeof exception_trap)
             ? DIPC_EFAULT
             : DIPC_EEXCEPTION;
}

/* One exception object per thread slot, in stack-key pages so that the
 * unwinder can use it in any domain. */
static struct _Unwind_Exception *fault_exceptions;

void dipc_recovery_init(void) {
  size_t size = RT_MAX_THREADS * sizeof *fault_exceptions;
  size = (size + RT_PAGE - 1) & ~(RT_PAGE - 1);
  fault_exceptions = dipc_sys_mmap(NULL, size, PROT_READ | PROT_WRITE,
                                   MAP_PRIVATE | MAP_ANONYMOUS, -1);
  DIPC_CHECK(fault_exceptions != MAP_FAILED &&
                 dipc_tag_pages(fault_exceptions, size, PROT_READ | PROT_WRITE,
                                RT_PKEY_STACK) == 0,
             "cannot map the fault exception objects");
  dipc_runtime_region(fault_exceptions, size);
}

DIPC_HIDDEN __attribute__((noreturn)) void dipc_raise_failed(long code);
void dipc_raise_failed(long code) {
  fprintf(stderr,
          "dipc: a callee faulted and its caller has no landing pad "
          "(_Unwind_ForcedUnwind: %ld)\n",
          code);
  abort();
}

static _Unwind_Reason_Code stop_at_landing_pad(int version,
                                               _Unwind_Action actions,
                                               _Unwind_Exception_Class cls,
                                               struct _Unwind_Exception *x,
                                               struct _Unwind_Context *ctx,
                                               void *param) {
  (void)version, (void)cls, (void)x, (void)ctx, (void)param;
  if (actions & _UA_END_OF_STACK)
    dipc_raise_failed(_URC_END_OF_STACK);
  return _URC_NO_REASON;
}

/* Called by __dipc_raise_trampoline (gate.S). The stub's landing pad is a
 * `cleanup` (C's __gcc_personality_v0 has no handlers), which the search
 * phase of _Unwind_RaiseException never stops at; a forced unwind enters
 * it directly. The first frame above the trampoline is the caller's. */
DIPC_HIDDEN __attribute__((noreturn)) void
dipc_raise_fault(struct _Unwind_Exception *x);
void dipc_raise_fault(struct _Unwind_Exception *x) {
  dipc_raise_failed(_Unwind_ForcedUnwind(x, stop_at_landing_pad, NULL));
}

/* Software-reserved bytes 464..511 of the FXSAVE area of a signal frame
 * (Linux: struct _fpx_sw_bytes). */
struct xsave_sw_bytes {
  uint32_t magic1, extended_size;
  uint64_t xfeatures;
  uint32_t xstate_size, reserved[7];
};
#define XSTATE_MAGIC1 0x46505853u
#define XFEATURE_PKRU 9

/* The PKRU slot of the XSAVE area in a signal frame, or NULL. */
static uint32_t *pkru_slot(ucontext_t *uc) {
  unsigned size, offset, c, d;
  char *fp = (char *)uc->uc_mcontext.fpregs;
  if (!fp || !__get_cpuid_count(0xd, XFEATURE_PKRU, &size, &offset, &c, &d) ||
      !size)
    return NULL;
  struct xsave_sw_bytes *sw = (struct xsave_sw_bytes *)(fp + 464);
  if (sw->magic1 != XSTATE_MAGIC1 || sw->xstate_size < offset + size ||
      !((sw->xfeatures >> XFEATURE_PKRU) & 1))
    return NULL;
  return (uint32_t *)(fp + offset);
}

/* The slot, which sigreturn then restores whatever the init state. */
static uint32_t *pkru_in_frame(ucontext_t *uc) {
  uint32_t *pkru = pkru_slot(uc);
  if (pkru)
    *(uint64_t *)((char *)uc->uc_mcontext.fpregs + 512) |= /* xstate_bv */
        1ULL << XFEATURE_PKRU;
  return pkru;
}

int dipc_frame_pkru(void *uc, uint32_t *pkru) {
  uint32_t *slot = pkru_slot(uc);
  if (!slot)
    return 0;
  /* A component in its init state (xstate_bv bit clear) is 0. */
  uint64_t bv = *(uint64_t *)((char *)((ucontext_t *)uc)->uc_mcontext.fpregs +
                              512);
  *pkru = (bv >> XFEATURE_PKRU) & 1 ? *slot : 0;
  return 1;
}

/* Memory a signal handler may write: the default domain's (the loader's
 * alternate stacks) or a stack; never the runtime's state. */
static int handler_memory(const void *p, size_t len) {
  uintptr_t lo = (uintptr_t)p;
  return lo + len > lo && dipc_right_on(0, lo, lo + len, 1) == DIPC_PERM_OWNER;
}

/* The runtime reads and rewrites the context with every right: it must be
 * the handler's own, as the kernel's signal frame is. Under dipc_lock. */
static int context_ok(const ucontext_t *uc) {
  if (!handler_memory(uc, sizeof *uc))
    return 0;
  const char *fp = (const char *)uc->uc_mcontext.fpregs;
  if (!fp)
    return 1;
  if (!handler_memory(fp, 512 + 64))
    return 0;
  const struct xsave_sw_bytes *sw = (const void *)(fp + 464);
  return sw->magic1 != XSTATE_MAGIC1 || handler_memory(fp, sw->xstate_size);
}

DIPC_HIDDEN int dipc_recover(struct dipc_thread *st, ucontext_t *uc);

/* Where a try-style recovery puts the caller's return address (see above):
 * inside the caller's stack (top hi), as a pushed return address always
 * is. */
static uintptr_t *return_slot(const struct dipc_kcs_entry *e, uintptr_t hi) {
  uintptr_t at = e->caller_rsp + (dipc_kcs_flags(e) >> K_FLAG_ARGBYTES_SHIFT);
  return at >= e->caller_rsp && at + 8 <= hi ? (uintptr_t *)at : NULL;
}

void dipc_kcs_caller_stack(const struct dipc_thread *st,
                           const struct dipc_kcs_entry *e, uintptr_t *lo,
                           uintptr_t *hi) {
  uintptr_t base[2] = {st->base_lo, st->base_hi};
  const struct dipc_kcs_entry *x = st->kcs_top - 1;
  for (; x > e; x = dipc_kcs_below(x))
    dipc_kcs_walk_stack(x, base, lo, hi);
  dipc_kcs_walk_stack(e, base, lo, hi);
}

/* A setjmp buffer lies in the caller's frame, on the stack it called from
 * ([lo, hi)); one armed elsewhere (runtime state, another domain's data)
 * would hand its words to the resumed caller. */
static int buffer_in(const struct dipc_kcs_entry *e, uintptr_t lo,
                     uintptr_t hi) {
  uintptr_t b = (uintptr_t)e->recovery;
  if (!b)
    return return_slot(e, hi) != NULL;
  return b == RT_RECOVERY_RETURN0 || (b >= lo && b <= hi - 3 * sizeof(void *));
}

int dipc_recovery_buffer_ok(const struct dipc_thread *st,
                            const struct dipc_kcs_entry *e) {
  uintptr_t lo, hi;
  dipc_kcs_caller_stack(st, e, &lo, &hi);
  return buffer_in(e, lo, hi);
}

int dipc_context_usable(struct dipc_thread *st, void *ucv) {
  ucontext_t *uc = ucv;
  if (!uc || st->in_gate)
    return 0; /* a handler that only wants the thread's image; trusted code */
  /* The runtime's lock held by the interrupted code (a gate's slow path
   * before it marked the thread in the gate, or fork's prepare and parent
   * gates): trusted code. */
  if (dipc_lock_unless_mine() != 0)
    return 0;
  int ok = context_ok(uc);
  dipc_unlock();
  if (!ok)
    return 0;
  uint32_t pkru;
  if (dipc_machine.backend == DIPC_BACKEND_MPK && dipc_frame_pkru(uc, &pkru) &&
      pkru == 0) /* trusted code was interrupted */
    return 0;
  /* With `none` the PKRU says nothing: recognise runtime code itself. */
  uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
  Dl_info at, self;
  return !(dipc_proxy_contains(pc) ||
           (dladdr((void *)pc, &at) && dladdr((void *)dipc_recover, &self) &&
            at.dli_fbase == self.dli_fbase));
}

void dipc_kcs_pop(struct dipc_thread *st) {
  struct dipc_kcs_entry *e = st->kcs_top - 1;
  st->kcs_top = e;
  st->recovery = NULL; /* one the callee armed for no call (gate.S) */
  st->cur_ds = e->cur_ds;
  if (e->cur_ds)
    e->cur_ds->cur = e->ds_saved;
  *(uintptr_t *)((char *)st + DIPC_USP_GS_OFFSET) = e->usp;
  dipc_shadow_stack_restore(st, e);
  /* Entries above e are gone, so the DCS base is back where e's call
   * found it unless e's proxy moved it (only such keep it). */
  if (dipc_kcs_flags(e) & K_FLAG_DCS) {
    st->dcs_base = e->dcs_base;
    st->dcs_top = e->dcs_top;
  }
  dipc_set_cur_dom(st, e->caller_dom);
  dipc_scratch_unwind(st, UINT32_MAX);
}

int dipc_resume_caller(struct dipc_thread *st, struct dipc_kcs_entry *e,
                       void *ucv, int code) {
  ucontext_t *uc = ucv;
  uintptr_t lo, hi;
  dipc_kcs_caller_stack(st, e, &lo, &hi);
  if (!buffer_in(e, lo, hi))
    return 0;
  dipc_lock();
  dipc_domain_make_resident(e->caller_dom);
  uint32_t image = dipc_machine.pkru_rw[e->caller_dom];
  st->cur_pkru = image;
  dipc_unlock();
  /* dipc_errno, in the thread's public page (gs base = st): the stubs'
   * resume paths leave it as it is. */
  *(volatile int *)((char *)st + DIPC_ERRNO_GS_OFFSET) = code;

  greg_t *r = uc->uc_mcontext.gregs;
  r[REG_RBX] = (greg_t)e->rbx;
  r[REG_RBP] = (greg_t)e->rbp;
  r[REG_R12] = (greg_t)e->r12;
  r[REG_R13] = (greg_t)e->r13;
  r[REG_R14] = (greg_t)e->r14;
  r[REG_R15] = (greg_t)e->r15;
  r[REG_RAX] = r[REG_RDX] = 0;
  if (uc->uc_mcontext.fpregs) {
    memset(uc->uc_mcontext.fpregs->_xmm, 0, 2 * sizeof(struct _xmmreg));
    /* The x87 stack empty and zeroed, as at any call: the callee may have
     * faulted with values on it (a long double result is 0 then too). */
    uc->uc_mcontext.fpregs->ftw = 0;
    uc->uc_mcontext.fpregs->swd &= (uint16_t)~0x3800; /* TOP = 0 */
    memset(uc->uc_mcontext.fpregs->_st, 0, sizeof uc->uc_mcontext.fpregs->_st);
  }
  if (e->recovery == (void **)RT_RECOVERY_RETURN0) {
    /* A call through an entry's address (anycall proxy): the call site is
     * any indirect call, with no buffer or landing pad; it gets 0. */
    r[REG_RSP] = (greg_t)(e->caller_rsp + 8);
    r[REG_RIP] = (greg_t)e->ret;
    r[REG_RCX] = r[REG_RSI] = r[REG_RDI] = r[REG_R8] = r[REG_R9] = 0;
    r[REG_R10] = r[REG_R11] = 0;
  } else if (e->recovery && dipc_machine.backend == DIPC_BACKEND_SFI) {
    /* setjmp style under sfi: right after the stub's call, which sees the
     * flag (dipc/abi.h); the buffer's words are the caller domain's. */
    r[REG_RSP] = (greg_t)(e->caller_rsp + 8);
    r[REG_RIP] = (greg_t)e->ret;
    r[REG_RCX] = r[REG_RSI] = r[REG_RDI] = r[REG_R8] = r[REG_R9] = 0;
    r[REG_R10] = 0;
    r[REG_R11] = DIPC_RESUME_FAULT;
  } else if (e->recovery) {
    r[REG_RBP] = (greg_t)e->recovery[0];
    r[REG_RIP] = (greg_t)e->recovery[1];
    r[REG_RSP] = (greg_t)e->recovery[2];
  } else {
    extern const char __dipc_raise_trampoline[];
    struct _Unwind_Exception *x = &fault_exceptions[st->index];
    memset(x, 0, sizeof *x);
    memcpy(&x->exception_class, "DIPCFLT", 8);
    uintptr_t *ret_slot = return_slot(e, hi);
    *ret_slot = e->ret;
    r[REG_RSP] = (greg_t)ret_slot;
    r[REG_RIP] = (greg_t)__dipc_raise_trampoline;
    r[REG_RDI] = (greg_t)x;
  }
  /* A wrapper's return slot, which the callee may have had written before
   * it faulted: as the proxy's return would (dipc/sfi.h). */
  if (dipc_machine.backend == DIPC_BACKEND_SFI && e->ret_slot)
    *e->ret_slot = e->ret_slot_val;
  dipc_domain_heaps_release(st->index + 1);
  /* A callee running with another process's TCB (dipc_lent_fs): the
   * caller gets its own back (under sfi and none the loader already did). */
  if (st->lent_fs &&
      dipc_sys(SYS_arch_prctl, ARCH_SET_FS, (long)st->fsbase, 0, 0, 0) == 0)
    st->lent_fs = 0;
  dipc_fault_hook_divert(e, uc);
  uint32_t *pkru = pkru_in_frame(uc);
  if (pkru)
    *pkru = image;
  return 1;
}

static int recover_callee(struct dipc_thread *st, ucontext_t *uc) {
  if (!dipc_context_usable(st, uc) || st->kcs_top == st->kcs_base)
    return 0;
  struct dipc_kcs_entry *e = st->kcs_top - 1;
  if (st->cur_dom != e->callee_dom || e->proxy == K_SIGNAL_MARK ||
      !dipc_recovery_buffer_ok(st, e))
    return 0;
  dipc_lock();
  dipc_dstack_report_overflow(st, uc);
  dipc_kcs_pop(st);
  dipc_unlock();
  return dipc_resume_caller(st, e, uc, failure_code(uc));
}

/* An access the sfi slow path refused is the instrumented code's fault, at
 * its call of the check; if no caller takes it back, the context stays as
 * it was, so that the refused access is never made. */
int dipc_recover(struct dipc_thread *st, ucontext_t *uc) {
  if (!uc) /* the loader before a program's handler: nothing to recover */
    return 0;
  struct dipc_sfi_undo undo;
  int trap = dipc_sfi_trap_fixup(uc, &undo);
  int ok = recover_callee(st, uc);
  if (!ok && trap)
    dipc_sfi_trap_undo(uc, &undo);
  return ok;
}
