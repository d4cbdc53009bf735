/* internal.h - declarations shared by the files of libdipc; nothing here is
 * exported. Functions marked "trusted" run with PKRU 0 on the thread's
 * trusted stack and, unless noted, with dipc_lock held. */
#ifndef DIPC_RT_INTERNAL_H
#define DIPC_RT_INTERNAL_H

#include <dipc/rt.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "dipc/sfi.h"
#include "layout.h"

#define DIPC_HIDDEN __attribute__((visibility("hidden")))
#define DIPC_EXPORT __attribute__((visibility("default")))

/* gate.S (a gate); dipc.h declares it only for -fdipc code. */
int *__dipc_errno_location(void);

/* Fail-stop: the runtime's invariants are never silently repaired. */
DIPC_HIDDEN __attribute__((noreturn, format(printf, 3, 4))) void
dipc_fatal(const char *file, int line, const char *fmt, ...);
#define DIPC_CHECK(cond, ...)                                                  \
  do {                                                                         \
    if (__builtin_expect(!(cond), 0))                                          \
      dipc_fatal(__FILE__, __LINE__, __VA_ARGS__);                             \
  } while (0)

/* ---- limits ------------------------------------------------------------- */
#define RT_KCS_ENTRIES 512
#define RT_DCS_ENTRIES 256
/* setjmp contexts kept per thread under `sfi` (sfi_cfi.c): live ones; the
 * oldest goes when a new one finds no room. */
#define RT_JMP_RECORDS 32
/* Signal handlers of instrumented code nested on one thread whose
 * interrupted contexts the runtime keeps under `sfi` (sfi_cfi.c). */
#define RT_KEPT_CONTEXTS 8
/* Fault hooks running nested on one thread under `sfi` (fault_hook.c). */
#define RT_HOOK_DEPTH 4
/* The loader's copies live at once on one thread under `sfi` (scratch.c):
 * an interceptor's, those of signal handlers nested in it. */
#define RT_SCRATCH_COPIES 16
#define RT_TRUSTED_STACK (64 * 1024)
/* Room for runtime C code below a gate's XSAVE area (gate.S XSAVE_USER). */
_Static_assert(RT_TRUSTED_STACK >= RT_XSAVE_MAX + 32 * 1024 &&
                   RT_BOOT_STACK >= RT_XSAVE_MAX + 32 * 1024,
               "trusted and bootstrap stacks hold an XSAVE area");
/* Callee stacks (dstack.c): the default size, the bounds a setting may
 * take, and the inaccessible guard below each one. */
#define RT_CALLEE_STACK_DEFAULT (8UL << 20)
#define RT_CALLEE_STACK_MIN (64UL << 10)
#define RT_CALLEE_STACK_MAX (1UL << 30)
#define RT_CALLEE_GUARD (64UL << 10)
/* The tables the loader mirrors: dipc/limits.h. */
#define RT_DOMAIN_NAME DIPC_DOMAIN_NAME_MAX
#define RT_MAX_HANDLES 16384
#define RT_MAX_GRANTS DIPC_MAX_GRANTS
#define RT_MAX_ENTRY_OBJS DIPC_MAX_ENTRY_SETS
#define RT_MAX_RANGES DIPC_MAX_RANGES
#define RT_NUM_PKEYS 16
#define RT_PAGE 4096UL
#define RT_MAX_IMPORTS DIPC_MAX_IMPORTS
/* Highest user address on x86-64 with 5-level paging; kernel pages (and
 * the vsyscall page /proc/self/maps lists) lie above. */
#define RT_USER_TOP (1UL << 56)
static inline uintptr_t dipc_page_down(uintptr_t a) {
  return a & ~(RT_PAGE - 1);
}
static inline uintptr_t dipc_page_up(uintptr_t a) {
  return (a + RT_PAGE - 1) & ~(RT_PAGE - 1);
}

/* ---- per-thread state (layout.h has the offsets) ------------------------ */
struct dipc_kcs_entry {
  uint32_t caller_dom, callee_dom;
  uintptr_t ret;                /* caller's return address */
  uintptr_t caller_rsp;         /* R: where the return address was */
  void **recovery;              /* armed __builtin_setjmp buffer or NULL */
  uint32_t saved_pkru;          /* caller's PKRU at the call */
  uint32_t pad;
  uintptr_t proxy;              /* proxy that pushed the entry */
  union {
    struct {
      uintptr_t base_lo, base_hi; /* signal markers: the base stack */
    };
    struct {
      uintptr_t *ret_slot, ret_slot_val; /* `sfi` proxies (dipc/sfi.h) */
    };
  };
  struct dipc_dstack *cur_ds;   /* caller's callee stack, if on one */
  uintptr_t ds_saved;           /* its DS_CUR before the call */
  uintptr_t callee_rsp;         /* rsp expected on the return path */
  uint32_t dcs_base, dcs_top;   /* caller's DCS bounds, if K_FLAG_DCS */
  uintptr_t rbx, rbp, r12, r13, r14, r15; /* caller's callee-saved regs */
  uintptr_t usp;                          /* caller's unsafe stack pointer */
  uintptr_t ssp; /* caller's shadow-stack top (dipc/sfi.h) */
};

struct dipc_dstack {
  uintptr_t lo, hi, cur, pad;
};

struct dipc_cap_reg {
  uint64_t base, size;
  uint32_t perm, dom; /* perm DIPC_PERM_NIL = empty register */
  /* Under `sfi`, the tag of every page of the range when it was made, +1
   * (cap.c): it covers them while they keep it (dipc_cap's reserved). */
  uint64_t sfi_tag;
};

struct dipc_thread {
  struct dipc_thread *self;
  uintptr_t fsbase;
  struct dipc_kcs_entry *kcs_top, *kcs_limit, *kcs_base;
  uint32_t cur_dom, cur_pkru;
  uintptr_t base_lo, base_hi; /* own stack, or a signal handler's */
  struct dipc_dstack *cur_ds;
  struct dipc_dstack *dstacks;
  void **recovery;
  uintptr_t trusted_sp;
  uint32_t slow_arg, in_gate;
  uint32_t dcs_base, dcs_top;
  /* Time-outs (timeout.c): outermost calls made, counted by proxies only
   * while there is a bound (a load, not a store, otherwise; one cache line
   * with the other words every proxy reads), and the bound. */
  uint64_t call_seq, timeout_ns;
  uintptr_t saved_rsp, saved_ret;
  /* The TCB a cross-process call borrowed (the loader's xproc_enter.S),
   * 0 outside one: the thread's own while it runs the other's code. */
  uintptr_t lent_fs;
  /* not touched by assembly */
  uintptr_t own_lo, own_hi; /* the thread's own stack */
  uint32_t index, live;
  int32_t tid;
  /* Time-outs: the kernel timer + 1 (0: none), and the outermost call
   * being watched since when (CLOCK_MONOTONIC ns). */
  uint64_t watch_seq, watch_since;
  int32_t timer;
  /* What the sfi slow paths refused last (sfi.c, sfi_cfi.c), for the
   * report: an access (kind 0), or a control transfer to addr (kind
   * DIPC_SFI_CFI_*; for a return, expected is what the shadow stack
   * holds). */
  struct {
    uintptr_t addr;
    uint64_t size;
    uint32_t write, dom;
    uint32_t kind;
    uintptr_t expected;
  } sfi_fault;
  struct dipc_cap_reg caps[8];
  struct dipc_cap_reg dcs[RT_DCS_ENTRIES];
  /* The contexts the setjmp family saved on this thread under `sfi`
   * (sfi_cfi.c), which a longjmp must resume exactly. buf 0: free. */
  struct dipc_jmp_record {
    uintptr_t buf;
    uintptr_t ctx[DIPC_SFI_JMP_WORDS];
    uint64_t seq;
    uint32_t n_scratch; /* the loader's copies live at the setjmp */
  } jmps[RT_JMP_RECORDS];
  uint64_t jmp_seq;
  /* The context a longjmp under way resumes, copied from its buffer and
   * checked (sfi_cfi.c): the jump reads it here, where no other thread of
   * the domain can change it after the check. */
  uintptr_t jmp_taken[DIPC_SFI_JMP_WORDS];
  /* What instrumented signal handlers running on this thread may not
   * change in the contexts their signals interrupted (sfi_cfi.c), newest
   * last: the ucontext's address, its general registers (NGREG), uc_stack
   * and the FP state's address. */
  struct dipc_kept_context {
    uintptr_t uc;
    uint64_t gregs[23];
    uint64_t stack[3];
    uint64_t fpregs;
  } kept[RT_KEPT_CONTEXTS];
  uint32_t n_kept;
  /* Under `sfi`, the calls whose callee's fault hook runs before they
   * resume (fault_hook.c), newest last: the context to resume (NGREG
   * registers), the hook's proxy and dipc_errno. */
  struct dipc_hook_resume {
    uint64_t gregs[23];
    uintptr_t proxy;
    int32_t err;
  } hook_resume[RT_HOOK_DEPTH];
  uint32_t n_hook_resume;
  /* The loader's copies in the slot's scratch area under `sfi`
   * (scratch.c), newest last: their bytes [at, end) from the area's start
   * and the KCS depth of the code they were made for. */
  struct dipc_scratch_copy {
    uint32_t at, end, depth;
  } scratch[RT_SCRATCH_COPIES];
  uint32_t n_scratch;
};

/* The thread now runs as dom: its state and the heap hint of its public
 * page (dipc/abi.h) say so. */
static inline void dipc_set_cur_dom(struct dipc_thread *st, uint32_t dom) {
  st->cur_dom = dom;
  *(uint32_t *)((char *)st + DIPC_DOM_GS_OFFSET) = dom;
}

/* DIPC_SFI_CALL_MAGIC, computed so that the constant itself appears in no
 * instruction of libdipc: 4 bytes of code equal to it would make the code
 * after them a call target (dipc/sfi.h). */
static inline uint32_t dipc_sfi_call_magic(void) {
  volatile uint32_t negated = 0u - DIPC_SFI_CALL_MAGIC;
  return 0u - negated;
}

/* A word of st's slot outside struct dipc_thread, by its gs offset (the
 * public page's, the shadow-stack words of dipc/sfi.h). */
static inline uintptr_t *dipc_slot_word(struct dipc_thread *st,
                                        unsigned gs_offset) {
  return (uintptr_t *)((char *)st + gs_offset);
}

/* Entering a KCS entry e: keep the caller's shadow-stack top in it,
 * which is then the floor (sfi_cfi.c); leaving: give it back. */
static inline void dipc_shadow_stack_save(struct dipc_thread *st,
                                          struct dipc_kcs_entry *e) {
  e->ssp = *dipc_slot_word(st, DIPC_SFI_SSP_GS_OFFSET);
}
static inline void dipc_shadow_stack_restore(struct dipc_thread *st,
                                             const struct dipc_kcs_entry *e) {
  *dipc_slot_word(st, DIPC_SFI_SSP_GS_OFFSET) = e->ssp;
}

/* [lo, hi): the stack st runs on, the callee stack it is on or else its
 * base stack. Derived, never copied: a proxy saves and restores cur_ds
 * alone, and only signal markers change the base (timeout.c). */
static inline void dipc_stack_in_use(const struct dipc_thread *st,
                                     uintptr_t *lo, uintptr_t *hi) {
  *lo = st->cur_ds ? st->cur_ds->lo : st->base_lo;
  *hi = st->cur_ds ? st->cur_ds->hi : st->base_hi;
}

static inline int dipc_kcs_is_mark(const struct dipc_kcs_entry *e) {
  return e->proxy == K_SIGNAL_MARK;
}

/* K_FLAG_* of the proxy (or signal marker) that pushed e (layout.h). */
static inline uint32_t dipc_kcs_flags(const struct dipc_kcs_entry *e) {
  if (dipc_kcs_is_mark(e))
    return K_FLAG_DCS;
  return *(const uint32_t *)(e->proxy + P_FLAGS);
}

/* The entry below e on the KCS (a marker has a free slot below it). */
static inline struct dipc_kcs_entry *
dipc_kcs_below(const struct dipc_kcs_entry *e) {
  return (struct dipc_kcs_entry *)(dipc_kcs_is_mark(e) ? e - 2 : e - 1);
}

/* One step of a walk down st's KCS, base[] starting as st->base_lo/hi:
 * [lo, hi) becomes the stack e's caller called from, its callee stack or
 * else the base stack of its time (a signal marker keeps the one below
 * its handler's). */
static inline void dipc_kcs_walk_stack(const struct dipc_kcs_entry *e,
                                       uintptr_t base[2], uintptr_t *lo,
                                       uintptr_t *hi) {
  if (dipc_kcs_is_mark(e)) {
    base[0] = e->base_lo;
    base[1] = e->base_hi;
  }
  *lo = e->cur_ds ? e->cur_ds->lo : base[0];
  *hi = e->cur_ds ? e->cur_ds->hi : base[1];
}

#define DIPC_OFFSET_IS(type, field, off)                                       \
  _Static_assert(offsetof(type, field) == (off), #type "." #field)
DIPC_OFFSET_IS(struct dipc_thread, self, ST_SELF);
DIPC_OFFSET_IS(struct dipc_thread, fsbase, ST_FSBASE);
DIPC_OFFSET_IS(struct dipc_thread, kcs_top, ST_KCS_TOP);
DIPC_OFFSET_IS(struct dipc_thread, kcs_limit, ST_KCS_LIMIT);
DIPC_OFFSET_IS(struct dipc_thread, kcs_base, ST_KCS_BASE);
DIPC_OFFSET_IS(struct dipc_thread, cur_dom, ST_CUR_DOM);
DIPC_OFFSET_IS(struct dipc_thread, cur_pkru, ST_CUR_PKRU);
DIPC_OFFSET_IS(struct dipc_thread, base_lo, ST_BASE_LO);
DIPC_OFFSET_IS(struct dipc_thread, base_hi, ST_BASE_HI);
DIPC_OFFSET_IS(struct dipc_thread, cur_ds, ST_CUR_DS);
DIPC_OFFSET_IS(struct dipc_thread, dstacks, ST_DSTACKS);
DIPC_OFFSET_IS(struct dipc_thread, recovery, ST_RECOVERY);
DIPC_OFFSET_IS(struct dipc_thread, trusted_sp, ST_TRUSTED_SP);
DIPC_OFFSET_IS(struct dipc_thread, slow_arg, ST_SLOW_ARG);
DIPC_OFFSET_IS(struct dipc_thread, in_gate, ST_IN_GATE);
DIPC_OFFSET_IS(struct dipc_thread, dcs_base, ST_DCS_BASE);
DIPC_OFFSET_IS(struct dipc_thread, dcs_top, ST_DCS_TOP);
DIPC_OFFSET_IS(struct dipc_thread, saved_rsp, ST_SAVED_RSP);
DIPC_OFFSET_IS(struct dipc_thread, lent_fs, ST_LENT_FS);
DIPC_OFFSET_IS(struct dipc_thread, saved_ret, ST_SAVED_RET);
DIPC_OFFSET_IS(struct dipc_thread, call_seq, ST_CALL_SEQ);
DIPC_OFFSET_IS(struct dipc_thread, timeout_ns, ST_TIMEOUT_NS);
DIPC_OFFSET_IS(struct dipc_dstack, lo, DS_LO);
DIPC_OFFSET_IS(struct dipc_dstack, hi, DS_HI);
DIPC_OFFSET_IS(struct dipc_dstack, cur, DS_CUR);
_Static_assert(sizeof(struct dipc_dstack) == DS_SIZE, "dstack size");
_Static_assert(sizeof(struct dipc_cap_reg) == 32, "capability size");
DIPC_OFFSET_IS(struct dipc_kcs_entry, caller_dom, K_CALLER_DOM);
DIPC_OFFSET_IS(struct dipc_kcs_entry, callee_dom, K_CALLEE_DOM);
DIPC_OFFSET_IS(struct dipc_kcs_entry, ret, K_RET);
DIPC_OFFSET_IS(struct dipc_kcs_entry, caller_rsp, K_CALLER_RSP);
DIPC_OFFSET_IS(struct dipc_kcs_entry, recovery, K_RECOVERY);
DIPC_OFFSET_IS(struct dipc_kcs_entry, saved_pkru, K_SAVED_PKRU);
DIPC_OFFSET_IS(struct dipc_kcs_entry, dcs_base, K_DCS_BASE);
DIPC_OFFSET_IS(struct dipc_kcs_entry, proxy, K_PROXY);
DIPC_OFFSET_IS(struct dipc_kcs_entry, base_lo, K_BASE_LO);
DIPC_OFFSET_IS(struct dipc_kcs_entry, base_hi, K_BASE_HI);
DIPC_OFFSET_IS(struct dipc_kcs_entry, ret_slot, K_RET_SLOT);
DIPC_OFFSET_IS(struct dipc_kcs_entry, ret_slot_val, K_RET_SLOT_VAL);
DIPC_OFFSET_IS(struct dipc_kcs_entry, cur_ds, K_CUR_DS);
DIPC_OFFSET_IS(struct dipc_kcs_entry, ds_saved, K_DS_SAVED);
DIPC_OFFSET_IS(struct dipc_kcs_entry, callee_rsp, K_CALLEE_RSP);
DIPC_OFFSET_IS(struct dipc_kcs_entry, dcs_top, K_DCS_TOP);
_Static_assert(K_DCS_TOP == K_DCS_BASE + 4 && ST_DCS_TOP == ST_DCS_BASE + 4,
               "the proxies copy the DCS bounds as one qword");
DIPC_OFFSET_IS(struct dipc_kcs_entry, rbx, K_RBX);
DIPC_OFFSET_IS(struct dipc_kcs_entry, rbp, K_RBP);
DIPC_OFFSET_IS(struct dipc_kcs_entry, r15, K_R15);
DIPC_OFFSET_IS(struct dipc_kcs_entry, usp, K_USP);
DIPC_OFFSET_IS(struct dipc_kcs_entry, ssp, K_SSP);
_Static_assert(sizeof(struct dipc_kcs_entry) == K_SIZE, "KCS entry size");

/* ---- backend.c: machine setup ------------------------------------------- */
enum dipc_backend_kind { DIPC_BACKEND_MPK, DIPC_BACKEND_NONE, DIPC_BACKEND_SFI };
struct dipc_machine {
  enum dipc_backend_kind backend;
  int cpu_pku;             /* the CPU/OS has PKU: gates execute WRPKRU */
  uint32_t *pkru_rw;       /* loaded image of each domain (runtime key) */
  const uint32_t *pkru_ro; /* its read-only alias at RT_RO_TABLE_ADDR */
  uint32_t *valid;         /* 1 while the domain's image is current */
  uint64_t apl_misses;     /* evictions of a resident domain */
  int fast_errno; /* FSGSBASE: the vector's errno entry is the fast path */
  /* DIPC_SHARED_STACKS=1, `none` only: proxies switch stacks only for
   * stack_confidentiality, as before stacks were isolated (benchmarks
   * measure what the switch costs). */
  int shared_stacks;
};
DIPC_HIDDEN extern struct dipc_machine dipc_machine;
DIPC_HIDDEN extern uintptr_t dipc_threads_lo, dipc_threads_hi;
/* The unsafe-stack region: RT_MAX_THREADS strides of RT_UNSAFE_STRIDE, and
 * the lent ones. */
#define RT_UNSAFE_REGION_SIZE                                                  \
  ((uintptr_t)(RT_MAX_THREADS + RT_UNSAFE_LENT_STRIDES) * RT_UNSAFE_STRIDE)
DIPC_HIDDEN extern uintptr_t dipc_unsafe_lo;
/* The shadow-stack region: RT_MAX_THREADS strides of RT_SHADOW_STRIDE. */
#define RT_SHADOW_REGION_SIZE ((uintptr_t)RT_MAX_THREADS * RT_SHADOW_STRIDE)
#if RT_UNSAFE_REGION_ADDR +                                                     \
        (RT_MAX_THREADS + RT_UNSAFE_LENT_STRIDES) * RT_UNSAFE_STRIDE >         \
        RT_SHADOW_REGION_ADDR ||                                               \
    RT_SHADOW_REGION_ADDR + RT_MAX_THREADS * RT_SHADOW_STRIDE > RT_STACKS_AREA_HI
#error "layout.h: the unsafe and shadow stack regions must fit their area"
#endif
DIPC_HIDDEN extern uintptr_t dipc_shadow_lo;
/* The top of thread slot i's shadow stack (empty: nothing pushed). */
static inline uintptr_t dipc_shadow_top(unsigned i) {
  return dipc_shadow_lo + ((uintptr_t)i + 1) * RT_SHADOW_STRIDE;
}
/* The same tables for gate.S. */
DIPC_HIDDEN extern uint32_t *dipc_pkru_rw_table, *dipc_valid_table;
/* init.c: brings up every part (the constructor); the top layer. */
DIPC_HIDDEN void dipc_runtime_init(void);
/* The backend, the protection keys and the window (reserved). */
DIPC_HIDDEN void dipc_machine_init(void);
/* The PKRU image tables, the runtime vector, the thread region. */
DIPC_HIDDEN void dipc_machine_map_tables(void);
/* Memory only gates can touch (the runtime key; key 0 with `none`). */
DIPC_HIDDEN void *dipc_alloc_runtime(size_t size);
/* Inaccessible address space in the window (guard addresses). */
DIPC_HIDDEN void *dipc_reserve_runtime(size_t size);
/* Tag [addr, addr+len) with protection key `key` (no-op with `none`). */
DIPC_HIDDEN int dipc_tag_pages(void *addr, size_t len, int prot, int key);
/* Make runtime-generated code (proxies) executable under the runtime key,
 * unscanned: it holds the gates' checked WRPKRUs. */
DIPC_HIDDEN int dipc_seal_runtime_code(void *addr, size_t len);
DIPC_HIDDEN void dipc_lock(void);
DIPC_HIDDEN void dipc_unlock(void);
/* dipc_lock for signal handlers: -1 (not taken) when the interrupted code
 * of this thread holds it; 0 once taken. */
DIPC_HIDDEN int dipc_lock_unless_mine(void);
DIPC_HIDDEN void dipc_publish_image(uint32_t dom, uint32_t image);

/* ---- sys.c, seccomp.c, exec.c: the kernel boundary (mpk) ---------------- */
/* The runtime's system call through the filter (sys.S): -1 and errno on
 * error. In trusted mode, or at init. */
DIPC_HIDDEN long dipc_sys(long nr, long a0, long a1, long a2, long a3,
                          long a4);
DIPC_HIDDEN int dipc_sys_pkey_mprotect(void *addr, size_t len, int prot,
                                       int key);
/* The runtime's own mmap (offset 0; a file only at init) and mprotect:
 * raw system calls, as mmap(2) and mprotect(2) return. */
DIPC_HIDDEN void *dipc_sys_mmap(void *addr, size_t len, int prot, int flags,
                                int fd);
DIPC_HIDDEN int dipc_sys_mprotect(void *addr, size_t len, int prot);
/* mmap for a domain (a file at an offset): a raw call without the cookie,
 * checked by the filter as the domain's own; MAP_FAILED and errno. */
DIPC_HIDDEN void *dipc_sys_mmap_for_domain(void *addr, size_t len, int prot,
                                           int flags, int fd, int64_t offset);
/* mmap(MAP_FIXED) anonymous memory at `at`, in the window; 0 or -1. */
DIPC_HIDDEN int dipc_sys_map_window(uintptr_t at, size_t len, int prot);
/* mremap [from, from+len) to `to` (into or out of the window); 0 or -1. */
DIPC_HIDDEN int dipc_sys_move(uintptr_t from, size_t len, uintptr_t to);
DIPC_HIDDEN int dipc_sys_set_gs(const void *base);
/* Creates the cookie in runtime-key memory (at init, seccomp.c); returns
 * it. */
DIPC_HIDDEN uint64_t dipc_sys_make_cookie(void);
/* The cookie; NULL while there is no filter (no loader, or `none`). */
DIPC_HIDDEN extern const uint64_t *dipc_sys_cookie;
/* Installs the filter for every thread (at init, after the cookie). */
DIPC_HIDDEN void dipc_seccomp_install(void);
/* rseq (thread.c): whether glibc registered its area at start (threads
 * then drop it; the mpk filter refuses new registrations). */
#define DIPC_RSEQ_FLAG_UNREGISTER 1
DIPC_HIDDEN int dipc_glibc_rseq_on(void);
/* si_errno of the filter's SIGSYS: a memory call made for the thread by
 * the runtime, checked (exec.c, mmcall.c). */
#define DIPC_SECCOMP_TRAP_DATA 0xd1c
/* A message on stderr, written straight to fd 2 (say.h). */
#include "say.h"
/* libdipc's code, whose traps the SIGSYS handler does not forward. */
DIPC_HIDDEN void dipc_exec_init(uintptr_t text_lo, uintptr_t text_hi);
/* mprotect, else mmap, with PROT_EXEC (mmcall.c picks them), x = {nr,
 * args...}; -errno on error. */
DIPC_HIDDEN long dipc_op_exec(const uint64_t *x);
/* OP_MEMORY: a trapped memory call of domain dom, x = {nr, args...}: the
 * call's result, or -errno (EACCES when refused). */
DIPC_HIDDEN long dipc_op_memory_call(const uint64_t *x, uint32_t dom);
/* 0 if domain dom may unmap, replace or move [addr, addr + len), else
 * -EACCES (said on stderr). */
DIPC_HIDDEN long dipc_may_change(long nr, uint32_t dom, uint64_t addr,
                                 uint64_t len);
/* mmap(MAP_FIXED) for the runtime; the address or -errno (exec.c). */
DIPC_HIDDEN long dipc_sys_map_fixed(uint64_t addr, uint64_t len, int prot,
                                    int flags, int fd, int64_t offset);
/* The PKRU a signal frame holds (0: trusted code was interrupted); 0 if
 * the frame has none (no PKU). */
DIPC_HIDDEN int dipc_frame_pkru(void *ucontext, uint32_t *pkru);
/* Whether the filter traps madvise(advice). */
DIPC_HIDDEN int dipc_madvise_trapped(int advice);

/* ---- handle.c ----------------------------------------------------------- */
enum dipc_handle_kind { H_DOM = 1, H_GRANT = 2, H_ENTRY = 3 };
DIPC_HIDDEN int64_t dipc_handle_new(enum dipc_handle_kind kind, uint32_t obj,
                                    uint8_t perm);
/* 0 and *obj, *perm, or -DIPC_EBADF / -DIPC_ESTALE. */
DIPC_HIDDEN int dipc_handle_get(int64_t h, enum dipc_handle_kind kind,
                                uint32_t *obj, uint8_t *perm);
DIPC_HIDDEN int dipc_handle_close_locked(int64_t h);
/* A domain handle's domain and permission (perm may be NULL): 0, or
 * -DIPC_EPERM when it is below need, or dipc_handle_get's error. */
DIPC_HIDDEN long dipc_handle_get_dom(int64_t h, uint32_t *dom, uint8_t *perm,
                                     uint8_t need);
/* The domain whose handles the runtime uses and creates from now on: the
 * caller's current domain for an API call. */
DIPC_HIDDEN void dipc_handle_act_for(uint32_t dom);
DIPC_HIDDEN uint32_t dipc_handle_acting(void);
DIPC_HIDDEN unsigned dipc_handle_live_count(void);
DIPC_HIDDEN void dipc_handle_drop_obj(enum dipc_handle_kind kind, uint32_t obj);

/* ---- domain.c ----------------------------------------------------------- */
DIPC_HIDDEN void dipc_domains_init(void);
/* A new live domain; made resident at once if a key is free and eager. */
/* A new domain: named (dom_create: resident while keys are free, with a
 * heap region) or a proxy domain. */
DIPC_HIDDEN int dipc_domain_new(uint32_t *out, int named);
DIPC_HIDDEN uint8_t dipc_apl_get(uint32_t src, uint32_t dst);
/* &APL[0][dst]; APL[src][dst] is RT_MAX_DOMAINS * src bytes further. */
DIPC_HIDDEN const uint8_t *dipc_apl_column(uint32_t dst);
DIPC_HIDDEN void dipc_apl_set(uint32_t src, uint32_t dst, uint8_t perm);
DIPC_HIDDEN void dipc_vector_set_default_writer(uint32_t dom, int writes);
/* Domain owning the page at addr (0 = default). */
DIPC_HIDDEN uint32_t dipc_domain_of(uintptr_t addr);
/* 1 if every page of [lo, hi) belongs to dom. */
DIPC_HIDDEN int dipc_domain_owns(uint32_t dom, uintptr_t lo, uintptr_t hi);
/* Whether addr lies in dom's executable pages (d != 0). */
DIPC_HIDDEN int dipc_domain_code(uint32_t dom, uintptr_t addr);
/* The sfi backend (sfi.c): page tags, the rights matrix, the trap. */
struct dipc_sfi_undo {
  int64_t rip, rsp; /* greg_t */
};
DIPC_HIDDEN void dipc_sfi_init(void);
DIPC_HIDDEN void dipc_sfi_tag(uintptr_t lo, uintptr_t hi, uint32_t tag);
DIPC_HIDDEN uint32_t dipc_sfi_tag_of(uintptr_t addr);
/* The loader (libdipc-loader.so, when it is there) defines this. */
extern int __dipc_loader_seal(void) __attribute__((weak));
/* Under `sfi`, memory an exported function reads or writes for a caller
 * that is not libdipc or the loader (`ret`, its return address) is
 * checked against the running domain's rights, as the loader's
 * interceptors do: libdipc is not instrumented (under `mpk` it runs with
 * the caller's own rights). A denied range is the caller's fault at its
 * call: dipc_user_fault leaves the exported function (its frame pointer)
 * for the sfi trap with the caller's return address on top. */
/* Whether a return address lies in libdipc's code or the loader's. */
DIPC_HIDDEN int dipc_trusted_caller(const void *ret);
/* dipc_code_scan's search (codescan.c), for the runtime's own scans. */
DIPC_HIDDEN int dipc_code_find(const void *code, size_t size,
                               struct dipc_code_hit *hit);
DIPC_HIDDEN int dipc_sfi_allowed(uintptr_t addr, uint64_t size, uint32_t write);
DIPC_HIDDEN int dipc_user_allowed(const void *p, size_t size, int write,
                                  const void *ret);
DIPC_HIDDEN __attribute__((noreturn)) void dipc_user_fault(void *frame);
#define DIPC_USER_ACCESS_(p, n, write)                                         \
  do {                                                                         \
    if (!dipc_user_allowed((p), (n), (write), __builtin_return_address(0)))  \
      dipc_user_fault(__builtin_frame_address(0));                             \
  } while (0)
#define DIPC_USER_READ(p, n) DIPC_USER_ACCESS_((p), (n), 0)
#define DIPC_USER_WRITE(p, n) DIPC_USER_ACCESS_((p), (n), 1)
DIPC_HIDDEN void dipc_sfi_row_init(uint32_t dom);
DIPC_HIDDEN void dipc_sfi_row_set(uint32_t dom, uint32_t tag, uint8_t perm);
DIPC_HIDDEN int dipc_sfi_trap_fixup(void *uc, struct dipc_sfi_undo *undo);
DIPC_HIDDEN void dipc_sfi_trap_undo(void *uc, const struct dipc_sfi_undo *undo);
/* The control-flow slow paths (sfi_cfi.c; sfi.S calls them). */
DIPC_HIDDEN void dipc_sfi_cfi_init(void);
/* Under `sfi`, whether instrumented code may call a target without the
 * call magic (sfi_cfi.c, DIPC_SFI_CHECK_CALL_FN's rule); no report. */
DIPC_HIDDEN int dipc_sfi_call_target_ok(uintptr_t target);
/* Under `sfi`, whether a proxy the runtime makes for a domain may jump to
 * target, unchecked: a start instrumented code may call (the call magic,
 * or the rule above), never an address inside a function (bytes hidden in
 * an immediate) or libc's own strcpy. 1 under the other backends. */
DIPC_HIDDEN int dipc_sfi_proxy_target_ok(uintptr_t target);

/* Fault hooks (fault_hook.c). */
DIPC_HIDDEN long dipc_op_set_fault_hook(const struct dipc_thread *st,
                                        uintptr_t hook);
DIPC_HIDDEN void dipc_fault_hook_divert(const struct dipc_kcs_entry *e,
                                        void *ucontext);
DIPC_HIDDEN void dipc_domain_make_resident(uint32_t dom);
DIPC_HIDDEN int dipc_domain_pkey_of(uint32_t dom);
DIPC_HIDDEN unsigned dipc_domain_resident_count(void);
DIPC_HIDDEN long dipc_op_dom_mmap(uint32_t dom, const uint64_t *a);
DIPC_HIDDEN int dipc_domain_map_heap(uint32_t dom);
DIPC_HIDDEN void dipc_domain_heaps_release(uint32_t holder);
/* First byte of dom's heap region (dipc/abi.h). */
static inline uintptr_t dipc_domain_heap(uint32_t dom) {
  return DIPC_HEAP_REGION(dom);
}
/* Drops the range-table rows of named domains that lie inside [lo, hi)
 * (unmapped: the caller checked); returns how many. */
DIPC_HIDDEN unsigned dipc_domain_forget_pages(uintptr_t lo, uintptr_t hi);
DIPC_HIDDEN int dipc_op_dom_remap(uint32_t dst, uint32_t src, uintptr_t addr,
                                  size_t size);

/* ---- slots.c: the thread table ------------------------------------------ */
enum dipc_slot_state { SLOT_FREE, SLOT_LIVE, SLOT_EXITED };
/* Each slot's state; slots in use are [0, dipc_max_threads). Written by
 * thread.c under the lock. */
DIPC_HIDDEN extern uint8_t dipc_slot_state[RT_MAX_THREADS];
DIPC_HIDDEN extern unsigned dipc_max_threads;

/* ---- thread.c ----------------------------------------------------------- */
/* ret: where the gate helper returns to; op: ebx there (the op when ret is
 * the API gate's, which tells a thread started with a reserved slot). */
DIPC_HIDDEN struct dipc_thread *
dipc_thread_lazy_create(uintptr_t user_rsp, uintptr_t ret, uint32_t op);
/* Slots set aside by dipc_thread_reserve (loader's pthread_create). */
DIPC_HIDDEN long dipc_thread_reserve_op(int take);
DIPC_HIDDEN long dipc_thread_init_reserved_op(struct dipc_thread *st);
/* The slot limit: RT_MAX_THREADS, or lower with DIPC_MAX_THREADS. */
DIPC_HIDDEN void dipc_thread_limits_init(void);
enum dipc_fork_phase { FORK_PREPARE, FORK_PARENT, FORK_CHILD };
/* Around fork (pthread_atfork): take the runtime's locks (boot lock, then
 * dipc_lock) before it; release them in the parent; in the child
 * reinitialise them and drop the other threads' states. */
DIPC_HIDDEN void dipc_fork_prepare(void);
DIPC_HIDDEN void dipc_fork_parent(void);
DIPC_HIDDEN void dipc_fork_child(struct dipc_thread *self);
DIPC_HIDDEN void dipc_lock_reinit(void);
DIPC_HIDDEN void dipc_fork_handlers_install(void); /* api.c */
DIPC_HIDDEN void dipc_thread_fault_in_domain(struct dipc_thread *st,
                                             uint32_t dom);
/* Threads a named domain creates (thread.c, OP_THREAD_SPAWN...). */
DIPC_HIDDEN long dipc_thread_spawn_op(struct dipc_thread *st, uintptr_t routine,
                                      uintptr_t arg);
DIPC_HIDDEN long dipc_thread_adopt_op(struct dipc_thread *st, uint64_t ticket,
                                      uint64_t *out);
DIPC_HIDDEN long dipc_thread_spawn_drop_op(struct dipc_thread *st,
                                           uint64_t ticket);
DIPC_HIDDEN long dipc_callback_proxy_op(struct dipc_thread *st, uintptr_t fn,
                                        uint64_t args);
DIPC_HIDDEN long dipc_thread_exit_value_op(struct dipc_thread *st, int set,
                                           uintptr_t value, uint64_t *out);
DIPC_HIDDEN void dipc_thread_alloc_dstack(struct dipc_thread *st, uint32_t dom);

/* ---- dstack.c: callee stack sizes, domain names ------------------------- */
/* Reads DIPC_CALLEE_STACK (dipc-run --callee-stack); a bad setting stops
 * the process with DIPC_EXIT_REFUSED. At init. */
DIPC_HIDDEN void dipc_dstack_config_init(void);
/* The size of dom's callee stacks allocated from now on. */
DIPC_HIDDEN size_t dipc_dstack_size(uint32_t dom);
/* OP_DOM_NAME: names domain dom (once; the loader does it for each
 * annotated domain), which picks its configured callee stack size. */
DIPC_HIDDEN long dipc_op_dom_name(uint32_t dom, const char *name, size_t room);
/* If the fault in uc hit the guard below the running domain's callee
 * stack, says so on stderr (domain, size, the setting to raise). */
DIPC_HIDDEN void dipc_dstack_report_overflow(const struct dipc_thread *st,
                                             const void *uc);
/* 1 if addr lies in the unsafe-stack region (any thread's, or a guard). */
DIPC_HIDDEN int dipc_in_unsafe_region(uintptr_t addr);
/* Whether [lo, hi) overlaps the unsafe-stack region. */
DIPC_HIDDEN int dipc_unsafe_overlaps(uintptr_t lo, uintptr_t hi);
/* 1 if [lo, hi) lies in st's own unsafe stack (mapped, shared key). */
DIPC_HIDDEN int dipc_thread_unsafe_holds(const struct dipc_thread *st,
                                         uintptr_t lo, uintptr_t hi);
/* Tag every live thread's callee stack of dom with key (dom's pages were
 * re-keyed: a domain's stacks follow its pages). Under dipc_lock. */
DIPC_HIDDEN void dipc_thread_rekey_dstacks(uint32_t dom, int key);
DIPC_HIDDEN void dipc_thread_release(struct dipc_thread *st);
/* OP_LEND_UNSAFE: fd mapped over the lent unsafe stride at addr. */
DIPC_HIDDEN long dipc_op_lend_unsafe(const struct dipc_thread *st,
                                     uint64_t addr, uint64_t fd);
/* OP_LENT_FS: the fs base becomes tcb, in the pages of the running domain,
 * which must stand for another process; 0: the thread's own again. */
DIPC_HIDDEN long dipc_op_lent_fs(struct dipc_thread *st, uint64_t tcb);
/* After OP_LENT_FS, out of the runtime's lock: fs becomes the lent TCB,
 * or the thread's own. */
DIPC_HIDDEN void dipc_lent_fs_apply(struct dipc_thread *st);
/* OP_SHARE_MAP (mmcall.c): args of dipc_share_map. */
DIPC_HIDDEN long dipc_op_sfi_unmap(uintptr_t addr, uint64_t len);
DIPC_HIDDEN long dipc_op_share_map(const struct dipc_thread *st,
                                   const uint64_t *x);
/* Whether dom stands for another process: a watcher said so of its
 * reservation for that process's memory (dipc_share_map; domain.c). */
DIPC_HIDDEN int dipc_domain_is_foreign(uint32_t dom);
DIPC_HIDDEN void dipc_domain_set_foreign(uint32_t dom);
/* At init: the process's cross-process roles (mmcall.c). */
DIPC_HIDDEN void dipc_share_map_init(void);
/* The domain owning all of [lo, hi), none of it the default domain's,
 * given to it PROT_NONE (a reservation); else 0 (domain.c). */
DIPC_HIDDEN uint32_t dipc_domain_reserved_owner(uintptr_t lo, uintptr_t hi);
/* Gives the copy at `copy` of [lo, hi) the keys of the domains owning
 * the pages of [lo, hi), with prot; 0 or -1 (domain.c). */
DIPC_HIDDEN int dipc_domain_key_copy(uintptr_t copy, uintptr_t lo,
                                     uintptr_t hi, int prot);
/* The domains' pages in [lo, hi) are recorded with prot (what a re-key
 * applies); 0, or -1 when the range table is full (domain.c). */
DIPC_HIDDEN int dipc_domain_set_prot(uintptr_t lo, uintptr_t hi, int prot);
/* 1 if some live thread runs with an image that lets it touch key. */
DIPC_HIDDEN int dipc_threads_using_key(int key);
DIPC_HIDDEN struct dipc_thread *dipc_thread_slot(unsigned i);
/* This thread's state as the gates find it (gate.S CHECK_THREAD): gs leads
 * to a live slot whose TCB is the one fs points at, or the TCB of another
 * process the thread borrowed for a call; else NULL (a state inherited
 * through clone(), or none yet). With FSGSBASE it reads nothing unless gs
 * is a live slot; without, gs must not be 0 (dipc_lock does not ask). */
DIPC_HIDDEN struct dipc_thread *dipc_current_thread(void);
/* Slot i's state if a live thread owns it, else NULL. */
DIPC_HIDDEN const struct dipc_thread *dipc_thread_live(unsigned i);
/* Forgets the loader's copies (scratch.c) made for code a recovery just
 * left (deeper than st's KCS now), or that a longjmp left (the newest
 * beyond `keep`; UINT32_MAX keeps all those). */
DIPC_HIDDEN void dipc_scratch_unwind(struct dipc_thread *st, uint32_t keep);

/* ---- owned.c, rights.c, maps.c: what memory an argument may name -------- */
/* Records [p, p+len) as the runtime's own state. */
DIPC_HIDDEN void dipc_runtime_region(const void *p, size_t len);
/* Records libdipc's own segments; at init. */
DIPC_HIDDEN void dipc_rights_init(void);
/* 1 if [lo, hi) overlaps the runtime's state (dipc_runtime_region, proxy
 * pages). */
DIPC_HIDDEN int dipc_runtime_owned(uintptr_t lo, uintptr_t hi);
/* Whether a loadable segment of the object behind info holds addr. */
struct dl_phdr_info;
DIPC_HIDDEN int dipc_segment_holds(const struct dl_phdr_info *info,
                                   uintptr_t addr);
/* Calls fn on each region dipc_runtime_region recorded. */
DIPC_HIDDEN void dipc_runtime_regions_each(void (*fn)(uintptr_t lo,
                                                     uintptr_t hi));
/* 1 if [lo, hi) overlaps a live thread's stack or callee stacks, or the
 * unsafe-stack region. */
DIPC_HIDDEN int dipc_stack_owned(uintptr_t lo, uintptr_t hi);
#define STACK_NONE (-1)   /* overlaps no stack */
#define STACK_SHARED (-2) /* lies in the unsafe-stack region */
#define STACK_MIXED (-3)  /* overlaps a stack without lying in one */
/* Whose stack [lo, hi) lies in: the domain of a callee stack (guard page
 * included), 0 for a thread's own stack, STACK_SHARED for the unsafe
 * stacks; STACK_NONE or STACK_MIXED otherwise. */
DIPC_HIDDEN int dipc_stack_owner(uintptr_t lo, uintptr_t hi);
/* 1 if every page of [lo, hi) is mapped in user space. Signal-safe. */
DIPC_HIDDEN int dipc_mapped(uintptr_t lo, uintptr_t hi);
/* 1 if [lo, hi) is the default domain's memory: mapped, in no domain's
 * pages, not runtime state, and (unless stacks_too) no thread's stack. */
DIPC_HIDDEN int dipc_default_memory(uintptr_t lo, uintptr_t hi, int stacks_too);
/* dom's right on [lo, hi): owner on its own pages, its APL entry on one
 * other domain's pages (the default domain's as dipc_default_memory says),
 * nil on anything else. With stacks_too, a range inside one stack: a
 * thread's own stack is the default domain's, a callee stack its domain's,
 * the unsafe stacks anyone's to write. */
DIPC_HIDDEN uint8_t dipc_right_on(uint32_t dom, uintptr_t lo, uintptr_t hi,
                                  int stacks_too);
/* fn(lo, hi, prot, path, ctx) for each mapping piece of [lo, hi), from
 * /proc/self/maps; stops at fn's first nonzero result; -ENOENT on a hole. */
DIPC_HIDDEN int dipc_for_each_mapping(uintptr_t lo, uintptr_t hi,
                                      int (*fn)(uintptr_t, uintptr_t, int,
                                                const char *, void *),
                                      void *ctx);
/* The protection all of [lo, hi) is mapped with (PROT_* ANDed), -1 if some
 * page is unmapped. */
DIPC_HIDDEN int dipc_mapping_prot(uintptr_t lo, uintptr_t hi);

/* ---- proxy.c ------------------------------------------------------------ */
DIPC_HIDDEN void dipc_proxy_init(void);
/* Writes count proxies (W^X) and returns their addresses in out[]. */
/* callers: the APL column (dipc_apl_column) of the domain callers need a
 * call grant to, which every call checks (not with `none`). */
/* callers DIPC_PROXY_ANYCALL: an anycall proxy, which every domain may
 * call and whose callee's faults return 0 (RT_RECOVERY_RETURN0). */
#define DIPC_PROXY_ANYCALL NULL
DIPC_HIDDEN int dipc_proxy_generate(uint32_t callee_dom, const uint8_t *callers,
                                    unsigned count,
                                    const struct dipc_entry_desc *callee,
                                    const dipc_policy_t *policy, void **out);
/* The same, with the callee's faults returning 0 (RT_RECOVERY_RETURN0) to
 * the caller when return0 is set, whoever the callers are. */
DIPC_HIDDEN int dipc_proxy_generate_ex(uint32_t callee_dom,
                                       const uint8_t *callers, int return0,
                                       unsigned count,
                                       const struct dipc_entry_desc *callee,
                                       const dipc_policy_t *policy, void **out);

/* 1 if addr lies in a proxy; if [lo, hi) overlaps proxy pages. */
DIPC_HIDDEN int dipc_proxy_contains(uintptr_t addr);
/* Makes the proxy pages whose callees lie in [lo, hi) inaccessible
 * (dipc_op_forget); returns how many mappings. */
DIPC_HIDDEN unsigned dipc_proxy_forget(uintptr_t lo, uintptr_t hi);
DIPC_HIDDEN int dipc_proxy_overlaps(uintptr_t lo, uintptr_t hi);

/* ---- gate.S ------------------------------------------------------------- */
struct dipc_gate_args {
  uint64_t arg[8];
  uint64_t out[4];
};
/* The argument block of OP_ENTRY_REGISTER and OP_ENTRY_REQUEST. */
struct dipc_gate_entry_args {
  struct dipc_gate_args base;
  struct dipc_entry_desc desc[DIPC_MAX_ENTRIES];
};
/* The argument block of OP_IMPORT_REGISTER. */
struct dipc_gate_import_args {
  struct dipc_gate_args base;
  struct dipc_entry_desc desc;
  char what[DIPC_IMPORT_WHAT];
};
_Static_assert(sizeof(struct dipc_gate_import_args) <=
                   sizeof(struct dipc_gate_entry_args),
               "dispatch copies argument blocks into an entry block");
enum dipc_op {
  OP_DOM_DEFAULT,
  OP_DOM_CREATE,
  OP_DOM_COPY,
  OP_DOM_MMAP,
  OP_DOM_REMAP,
  OP_GRANT_CREATE,
  OP_GRANT_REVOKE,
  OP_ENTRY_REGISTER,
  OP_ENTRY_REQUEST,
  OP_HANDLE_CLOSE,
  OP_DOM_PKEY,
  OP_STATS,
  OP_KCS_DEPTH,
  OP_THREAD_STATE,
  OP_CURRENT_DOM,
  OP_CAP_CREATE,
  OP_CAP_DERIVE,
  OP_CAP_PUSH,
  OP_CAP_POP,
  OP_CAP_REVOKE,
  OP_CAP_READ,
  OP_CAP_CHECK,
  OP_DCS_DEPTH,
  OP_THREAD_INIT,
  OP_THREAD_EXIT,
  OP_IMPORT_REGISTER,
  OP_IMPORT_BIND,
  OP_IMPORT_RESOLVE,
  OP_MEMORY,
  OP_THREAD_RESERVE,       /* arg 1: set a slot aside, 0: give one back */
  OP_THREAD_INIT_RESERVED, /* read by dipc_thread_lazy_create */
  OP_FORK,                 /* arg: enum dipc_fork_phase */
  OP_ANYCALL_REGISTER,     /* arg: entry set; desc[0]: stub, signature */
  OP_ANYCALL_MISS,         /* arg: the r11 no stub is registered for */
  OP_SET_CALL_TIMEOUT,     /* arg: ns, 0 = none (timeout.c) */
  OP_UNWIND_JUMP,          /* arg: the jump's stack pointer (timeout.c) */
  OP_DOM_HEAP,             /* arg: domain handle; its heap region */
  OP_SET_FAULT_HOOK,       /* arg: the hook, 0 = none (fault_hook.c) */
  OP_DOM_NAME,             /* arg: dom; import block's `what`: the name */
  OP_FORGET,               /* args: lo, hi of an unmapped object (dispatch.c) */
  OP_THREAD_SPAWN,         /* arg: routine, arg; a start ticket (thread.c) */
  OP_THREAD_ADOPT,         /* arg: a start ticket; out: proxy, arg */
  OP_THREAD_SPAWN_DROP,    /* arg: a start ticket no thread will adopt */
  OP_THREAD_EXIT_VALUE,    /* arg: 1, value: pthread_exit in a domain; 0: take it */
  OP_CALLBACK_PROXY,       /* arg: fn, its integer arguments (thread.c) */
  OP_LEND_UNSAFE,          /* args: a lent unsafe stride, a memfd (thread.c) */
  OP_LENT_FS,              /* arg: a lent TCB, 0 = the thread's own (thread.c) */
  OP_SHARE_MAP,            /* args: dipc_share_map's (mmcall.c) */
  OP_SFI_UNMAP,            /* args: munmap's (sfi.c) */
  OP_COUNT
};
_Static_assert(OP_IMPORT_RESOLVE == OP_IMPORT_RESOLVE_NUM, "layout.h op");
_Static_assert(OP_MEMORY == OP_MEMORY_NUM, "layout.h op");
_Static_assert(OP_ANYCALL_MISS == OP_ANYCALL_MISS_NUM, "layout.h op");
DIPC_HIDDEN long dipc_gate_pku(unsigned op, struct dipc_gate_args *args);
DIPC_HIDDEN long dipc_gate_nopku(unsigned op, struct dipc_gate_args *args);
DIPC_HIDDEN long dipc_gate(unsigned op, struct dipc_gate_args *args);
DIPC_HIDDEN long dipc_dispatch(unsigned op, struct dipc_gate_args *user,
                               struct dipc_thread *st);

/* ---- entry.c, grant.c: below the dispatcher and import.c ---------------- */
DIPC_HIDDEN long dipc_op_entry_register(struct dipc_gate_entry_args *ea);
DIPC_HIDDEN long dipc_op_entry_request(struct dipc_gate_entry_args *ea);
DIPC_HIDDEN long dipc_op_anycall_register(struct dipc_gate_entry_args *ea,
                                          const struct dipc_thread *st);
/* dead[s] = whether entry set s has an entry in [lo, hi) (OP_FORGET). */
DIPC_HIDDEN void dipc_entry_sets_in(uintptr_t lo, uintptr_t hi,
                                    uint8_t *dead);
/* Kills the entry sets with dead[s] and every handle to them; how many. */
DIPC_HIDDEN unsigned dipc_entry_sets_drop(const uint8_t *dead);
/* Signatures within dipc/signature.h's limits; policies of known bits. */
DIPC_HIDDEN int dipc_signature_ok(const struct dipc_signature *s);
#define DIPC_POLICY_MASK 0x3fu
DIPC_HIDDEN long dipc_op_grant_create(int64_t hsrc, int64_t hdst);
DIPC_HIDDEN long dipc_op_grant_revoke(int64_t h);

/* ---- import.c ----------------------------------------------------------- */
DIPC_HIDDEN long dipc_op_import(unsigned op, struct dipc_gate_args *a,
                                struct dipc_thread *st);
/* dipc_op_forget: imports whose slot lies in [lo, hi) are dropped; those
 * bound to a set with dead[set] are unbound, their slot back on its guard.
 * Returns how many were dropped or unbound. */
DIPC_HIDDEN unsigned dipc_import_forget(uintptr_t lo, uintptr_t hi,
                                        const uint8_t *dead);

/* ---- anycall.c ---------------------------------------------------------- */
/* The anycall table's writable alias (backend.c maps and defines it). */
DIPC_HIDDEN extern uintptr_t *dipc_anycall_rw;
/* 0 if stub is an anycall stub of the default domain's text not in the
 * table yet; -DIPC_EINVAL, -DIPC_EEXIST otherwise. */
DIPC_HIDDEN long dipc_anycall_check_stub(uintptr_t stub);
/* Whether stub is a registered anycall stub (an entry loaded). */
DIPC_HIDDEN int dipc_anycall_registered(uintptr_t stub);
/* set: the entry set whose proxy it is (dipc_anycall_forget). */
DIPC_HIDDEN long dipc_anycall_insert(uintptr_t stub, void *proxy,
                                     uint32_t set);
/* Removes the stubs in [lo, hi) and those of sets with dead[set]; returns
 * how many. */
DIPC_HIDDEN unsigned dipc_anycall_forget(uintptr_t lo, uintptr_t hi,
                                         const uint8_t *dead);
DIPC_HIDDEN _Noreturn long dipc_anycall_miss(uintptr_t r11);

/* ---- recovery.c -------------------------------------------------------- */
DIPC_HIDDEN void dipc_recovery_init(void);
/* Pops st's newest KCS entry and restores what the call changed (domain,
 * stack bounds, callee stack, unsafe stack pointer, DCS bounds), as a
 * return would; not the registers. Under dipc_lock. */
DIPC_HIDDEN void dipc_kcs_pop(struct dipc_thread *st);
/* The checks a handler's context passes before the runtime rewrites it;
 * 0 when it interrupted trusted code or cannot be used. Takes dipc_lock. */
DIPC_HIDDEN int dipc_context_usable(struct dipc_thread *st, void *uc);
/* Rewrites uc to resume the caller of entry e (just popped) as after a
 * callee fault, with dipc_errno = code (DIPC_EFAULT, DIPC_ETIMEDOUT) and
 * the caller's domain current. 0 if e's recovery buffer is unusable. */
DIPC_HIDDEN int dipc_resume_caller(struct dipc_thread *st,
                                   struct dipc_kcs_entry *e, void *uc,
                                   int code);
/* 1 if e's setjmp buffer lies on the stack its caller called from. */
DIPC_HIDDEN int dipc_recovery_buffer_ok(const struct dipc_thread *st,
                                        const struct dipc_kcs_entry *e);
/* [lo, hi): the stack e's caller called from (e on st's KCS, or just
 * popped from its top). */
DIPC_HIDDEN void dipc_kcs_caller_stack(const struct dipc_thread *st,
                                       const struct dipc_kcs_entry *e,
                                       uintptr_t *lo, uintptr_t *hi);

/* ---- timeout.c: time-outs and jumps out of calls ----------------------- */
DIPC_HIDDEN long dipc_op_set_call_timeout(struct dipc_thread *st,
                                          uint64_t ns);
DIPC_HIDDEN void dipc_timeout_release(struct dipc_thread *st);
DIPC_HIDDEN long dipc_op_unwind_jump(struct dipc_thread *st, uintptr_t sp);
/* Whether sp lies on the alternate signal stack that starts at alt's
 * ss_sp: the loader's handlers arm only its lower part while they run
 * (loader/signals.c), so the whole is at least DIPC_ALTSTACK_SIZE. */
DIPC_HIDDEN int dipc_on_signal_stack(uintptr_t sp, const void *alt);

/* ---- cap.c -------------------------------------------------------------- */
DIPC_HIDDEN long dipc_op_cap(unsigned op, struct dipc_gate_args *a,
                             struct dipc_thread *st);

#endif
