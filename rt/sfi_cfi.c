/* sfi_cfi.c - the slow paths of the control-flow checks compiled into
 * -fdipc-sfi code (dipc/sfi.h, "Control flow"): a return whose top
 * shadow-stack entry did not match, an indirect call to a target without
 * the call magic, an indirect branch to no label of its own. Each returns
 * 1 to let the transfer happen or records the refusal for the fault
 * report and returns 0, and sfi.S faults on the trap page as for a denied
 * access (reported and recovered the same way).
 *
 * Only `sfi` refuses. Under the other backends the shadow stack is kept as
 * well (the same binary runs there), but no domain's transfer is refused:
 * there these checks protect nothing, as with `none` for accesses. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <string.h>
#include <sys/ucontext.h>
#include <sys/uio.h>
#include <unistd.h>

#include "dipc/sfi.h"
#include "internal.h"

static int enforced(void) { return dipc_machine.backend == DIPC_BACKEND_SFI; }

static int refuse(uint32_t kind, uintptr_t where, uintptr_t expected) {
  struct dipc_thread *st = dipc_current_thread();
  if (st)
    st->sfi_fault = (__typeof__(st->sfi_fault)){
        .addr = where,
        .dom = st->cur_dom % RT_MAX_DOMAINS,
        .kind = kind,
        .expected = expected};
  return 0;
}

static uintptr_t *slot_word(unsigned gs_offset) {
  uintptr_t self;
  __asm__ volatile("mov %%gs:0, %0" : "=r"(self));
  return (uintptr_t *)(self + gs_offset);
}

/* The entry of the frame whose return address is at *slot: the newest
 * entry naming that slot, above the floor. Newer entries are frames a
 * longjmp, an exception or a signal handler's siglongjmp left without
 * returning; they go with it. The return address must be the one pushed:
 * a frame whose return address was overwritten does not return. */
/* The shadow stack's floor: the entries at or above it are the callers'
 * across the newest proxy or signal marker (the top it kept), which the
 * code running now may not drop; with no KCS entry, the empty top. Kept
 * nowhere else: the proxies' time is mostly their stores. */
static uintptr_t floor_of(const struct dipc_thread *st) {
  return st->kcs_top > st->kcs_base ? st->kcs_top[-1].ssp
                                    : dipc_shadow_top(st->index);
}

DIPC_HIDDEN int dipc_sfi_ret_ok(void **slot);
int dipc_sfi_ret_ok(void **slot) {
  uintptr_t *top = slot_word(DIPC_SFI_SSP_GS_OFFSET);
  const struct dipc_thread *st = dipc_current_thread();
  uintptr_t floor = st ? floor_of(st) : 0;
  for (uintptr_t s = *top; s < floor; s += 16) {
    const uintptr_t *e = (const uintptr_t *)s;
    if (e[1] != (uintptr_t)slot)
      continue;
    if (e[0] != (uintptr_t)*slot && enforced())
      return refuse(DIPC_SFI_CFI_RETURN, (uintptr_t)*slot, e[0]);
    *top = s + 16;
    return 1;
  }
  /* No entry: a frame whose prologue did not run, or entries dropped by
   * an attack on the shadow stack's words (which `sfi` forbids). */
  return enforced() ? refuse(DIPC_SFI_CFI_RETURN, (uintptr_t)*slot, 0) : 1;
}

/* Targets found allowed, so that a library function called through a
 * pointer in a loop costs the lookup once: open addressing, runtime
 * memory (no domain writes it), entries never removed (a library that is
 * unloaded leaves its addresses here: dlclose of a library instrumented
 * code called is refused under `sfi`, docs/runtime.md §1). */
#define ALLOWED_SLOTS 4096
static uintptr_t *allowed;

void dipc_sfi_cfi_init(void) {
  if (enforced())
    allowed = dipc_alloc_runtime(ALLOWED_SLOTS * sizeof *allowed);
}

static unsigned hash(uintptr_t target) {
  return (unsigned)((target * 0x9e3779b97f4a7c15ull) >> 52) %
         ALLOWED_SLOTS;
}

static int allowed_has(uintptr_t target) {
  for (unsigned i = hash(target), n = 0; n < 8; i = (i + 1) % ALLOWED_SLOTS,
                n++) {
    uintptr_t v = __atomic_load_n(&allowed[i], __ATOMIC_ACQUIRE);
    if (v == target)
      return 1;
    if (!v)
      return 0;
  }
  return 0;
}

static void allowed_add(uintptr_t target) {
  for (unsigned i = hash(target), n = 0; n < 8; i = (i + 1) % ALLOWED_SLOTS,
                n++) {
    uintptr_t none = 0;
    if (__atomic_compare_exchange_n(&allowed[i], &none, target, 0,
                                    __ATOMIC_RELEASE, __ATOMIC_RELAXED) ||
        none == target)
      return;
  }
  /* Full around its hash: looked up again next time. */
}

/* Whether target is the start of a function of the program's own
 * executable by its symbol table: the functions of its plain units (no
 * dIPC records, compiled without the checks, trusted like the libraries),
 * whose addresses instrumented code and libc's callbacks may hold. A
 * stripped executable has none. */
struct exe_text {
  uintptr_t target, bias;
  int inside; /* in a segment of the executable (its symbols say if code) */
};

/* The first object dl_iterate_phdr reports is the executable. */
static int exe_text_holds(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  struct exe_text *x = data;
  x->bias = info->dlpi_addr;
  x->inside = dipc_segment_holds(info, x->target);
  return 1; /* the first object only */
}

static int program_function_start(uintptr_t target) {
  struct exe_text x = {target, 0, 0};
  dl_iterate_phdr(exe_text_holds, &x);
  if (!x.inside)
    return 0;
  int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0)
    return 0;
  int found = 0;
  if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof(ElfW(Ehdr))) {
    const uint8_t *f = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (f != MAP_FAILED) {
      const ElfW(Ehdr) *eh = (const void *)f;
      size_t size = (size_t)st.st_size;
      uintptr_t want = target - x.bias;
      if (eh->e_shoff < size && eh->e_shentsize == sizeof(ElfW(Shdr)) &&
          eh->e_shnum <= (size - eh->e_shoff) / sizeof(ElfW(Shdr)))
        for (unsigned i = 0; i < eh->e_shnum && !found; i++) {
          const ElfW(Shdr) *sh = (const ElfW(Shdr) *)(f + eh->e_shoff) + i;
          if (sh->sh_type != SHT_SYMTAB || sh->sh_offset > size ||
              sh->sh_size > size - sh->sh_offset)
            continue;
          const ElfW(Sym) *sym = (const void *)(f + sh->sh_offset);
          for (size_t k = 0; k < sh->sh_size / sizeof *sym; k++)
            if (ELF64_ST_TYPE(sym[k].st_info) == STT_FUNC &&
                sym[k].st_shndx != SHN_UNDEF && sym[k].st_value == want) {
              found = 1;
              break;
            }
        }
      munmap((void *)f, size);
    }
  }
  close(fd);
  return found;
}

/* The loader's: whether t is a function of libc only its interceptor may
 * call (another name of it reached it unchecked: loader/sfi_alias.c). */
extern int __dipc_loader_sfi_bypass(uintptr_t t) __attribute__((weak));

/* The loader's: whether t is a function of libc or libm that nothing
 * checks (loader/sfi_calls.c): a function pointer's type says nothing of
 * what the function does with the registers it is called with. */
extern int __dipc_loader_sfi_unchecked(uintptr_t t) __attribute__((weak));

/* A target without the call magic: allowed only if it is a loaded entry's
 * anycall stub, or the start of a
 * function a direct call by name would reach, that is, an exported
 * function of a loaded object that the name resolves to in the global
 * scope (an interceptor's, not the C library's function it replaces), or
 * of a function of the program's plain units. No address inside a
 * function; no code of the runtime that is not an exported entry point;
 * no function of libc the loader does not check. */
int dipc_sfi_call_target_ok(uintptr_t t) {
  const void *target = (const void *)t;
  if (!enforced() || allowed_has(t))
    return 1;
  if (__dipc_loader_sfi_bypass && __dipc_loader_sfi_bypass(t))
    return 0;
  if (__dipc_loader_sfi_unchecked && __dipc_loader_sfi_unchecked(t))
    return 0;
  /* An entry's address (its anycall stub): the record back-link before it
   * leaves no room for the magic, and any domain may call it. */
  if (dipc_anycall_registered(t)) {
    allowed_add(t);
    return 1;
  }
  Dl_info info;
  const ElfW(Sym) *sym = NULL;
  if (dladdr1(target, &info, (void **)&sym, RTLD_DL_SYMENT) &&
      info.dli_saddr == target && info.dli_sname && sym &&
      ELF64_ST_TYPE(sym->st_info) == STT_FUNC &&
      dlsym(RTLD_DEFAULT, info.dli_sname) == target) {
    allowed_add(t);
    return 1;
  }
  if (program_function_start(t)) {
    allowed_add(t);
    return 1;
  }
  return 0;
}

DIPC_HIDDEN int dipc_sfi_call_ok(const void *target);
int dipc_sfi_call_ok(const void *target) {
  return dipc_sfi_call_target_ok((uintptr_t)target) ||
         refuse(DIPC_SFI_CFI_CALL, (uintptr_t)target, 0);
}

/* A wrapper's stub found its target outside the runtime's proxies
 * (dipc/sfi.h): the proxy that keeps the wrapper's return is missing. */
DIPC_HIDDEN int dipc_sfi_proxy_call_ok(const void *target);
int dipc_sfi_proxy_call_ok(const void *target) {
  return !enforced() || refuse(DIPC_SFI_CFI_PROXY, (uintptr_t)target, 0);
}

/* The 4 bytes before `at` are DIPC_SFI_CALL_MAGIC; read by the kernel, so
 * that an unreadable address is a no, not a fault in the runtime (`sfi`
 * only: it has no system-call filter). */
static int has_call_magic(uintptr_t at) {
  uint32_t magic = 0;
  struct iovec here = {&magic, sizeof magic},
               there = {(void *)(at - sizeof magic), sizeof magic};
  return at >= sizeof magic &&
         syscall(SYS_process_vm_readv, getpid(), &here, 1UL, &there, 1UL,
                 0UL) == (long)sizeof magic &&
         magic == dipc_sfi_call_magic();
}

int dipc_sfi_proxy_target_ok(uintptr_t target) {
  return !enforced() || has_call_magic(target) ||
         dipc_sfi_call_target_ok(target);
}

/* A target without the call magic handed to libc to call later with
 * arguments libc computes from what the domain gave it (a comparator, a
 * stream's functions, a thread's routine), from its own code with no
 * check of the call: only a function of the program's plain units. A
 * library's exported function (bcopy as a stream's read function, memcpy
 * as qsort_r's comparator) would run on them unchecked. */
static int callback_target_ok(uintptr_t target) {
  return !enforced() || program_function_start(target);
}

DIPC_HIDDEN int dipc_sfi_callback_ok(const void *target);
int dipc_sfi_callback_ok(const void *target) {
  return callback_target_ok((uintptr_t)target) ||
         refuse(DIPC_SFI_CFI_CALL, (uintptr_t)target, 0);
}

DIPC_HIDDEN void dipc_sfi_cfi_refuse(uint32_t kind, const void *where);
void dipc_sfi_cfi_refuse(uint32_t kind, const void *where) {
  refuse(kind, (uintptr_t)where, 0);
}

/* ---- the setjmp family (dipc/sfi.h, DIPC_SFI_CFI_JUMP) ------------------ */

/* Words of glibc's __jmpbuf (dipc/sfi.h's order). */
enum { JMP_RBP = 1, JMP_RSP = 6, JMP_PC = 7 };

static int same_stack(const struct dipc_thread *st, uintptr_t a, uintptr_t b) {
  uintptr_t lo, hi;
  dipc_stack_in_use(st, &lo, &hi);
  return a >= lo && a < hi && b >= lo && b < hi;
}

/* Drops r: its buffer word first, so a check a signal handler makes
 * meanwhile finds no half-written record. */
static void jmp_drop(struct dipc_jmp_record *r) {
  __atomic_store_n(&r->buf, 0, __ATOMIC_RELAXED);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* The loader's setjmp family saves ctx into buf: kept until the thread
 * saves into buf again, or a setjmp higher up the same stack shows that
 * its frame returned, or 32 newer ones push it out. Only for the loader's
 * calls (no domain may record a context of its choosing). */
DIPC_EXPORT void __dipc_sfi_jmp_record(const void *buf, const uintptr_t *ctx) {
  if (!enforced() || !dipc_trusted_caller(__builtin_return_address(0)))
    return;
  struct dipc_thread *st = dipc_current_thread();
  if (!st)
    return;
  struct dipc_jmp_record *free = NULL, *oldest = &st->jmps[0];
  for (unsigned i = 0; i < RT_JMP_RECORDS; ++i) {
    struct dipc_jmp_record *r = &st->jmps[i];
    if (r->buf == (uintptr_t)buf ||
        (r->buf && r->ctx[JMP_RSP] < ctx[JMP_RSP] &&
         same_stack(st, r->ctx[JMP_RSP], ctx[JMP_RSP])))
      jmp_drop(r);
    if (!r->buf)
      free = free ? free : r;
    else if (r->seq < oldest->seq || !oldest->buf)
      oldest = r;
  }
  struct dipc_jmp_record *r = free ? free : oldest;
  jmp_drop(r);
  for (unsigned i = 0; i < DIPC_SFI_JMP_WORDS; ++i)
    r->ctx[i] = ctx[i];
  r->seq = ++st->jmp_seq;
  r->n_scratch = st->n_scratch;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  __atomic_store_n(&r->buf, (uintptr_t)buf, __ATOMIC_RELAXED);
}

/* __dipc_sfi_jump_take (sfi.S): the context a longjmp through buf
 * resumes, which must be what the thread's last setjmp into buf saved
 * there: copied from buf (glibc's __jmpbuf, three words mangled with the
 * thread's pointer guard), checked, and returned in the thread's state,
 * which no domain writes; NULL (a control-flow fault) if refused. The
 * fault names buf, not the pc read from it: the report is any domain's to
 * read, and a buffer over another domain's memory (which the loader
 * checks first) or a zero one would show its words or the guard. */
static uintptr_t demangle(uintptr_t v) {
  uintptr_t guard;
  __asm__("mov %%fs:0x30, %0" : "=r"(guard));
  return ((v >> 0x11) | (v << (64 - 0x11))) ^ guard;
}

DIPC_HIDDEN const uintptr_t *dipc_sfi_jump_take(const void *buf);
const uintptr_t *dipc_sfi_jump_take(const void *buf) {
  struct dipc_thread *st = dipc_current_thread();
  if (!st)
    return NULL;
  uintptr_t *ctx = st->jmp_taken;
  for (unsigned w = 0; w < DIPC_SFI_JMP_WORDS; ++w) {
    uintptr_t v = __atomic_load_n((const uintptr_t *)buf + w, __ATOMIC_RELAXED);
    ctx[w] = w == JMP_RBP || w == JMP_RSP || w == JMP_PC ? demangle(v) : v;
  }
  if (!enforced())
    return ctx;
  for (unsigned i = 0; i < RT_JMP_RECORDS; ++i) {
    const struct dipc_jmp_record *r = &st->jmps[i];
    if (r->buf != (uintptr_t)buf)
      continue;
    for (unsigned w = 0; w < DIPC_SFI_JMP_WORDS; ++w)
      if (r->ctx[w] != ctx[w]) {
        refuse(DIPC_SFI_CFI_JUMP, (uintptr_t)buf, r->ctx[JMP_PC]);
        return NULL;
      }
    /* The loader's copies taken since are for frames the jump leaves. */
    dipc_scratch_unwind(st, r->n_scratch);
    return ctx;
  }
  refuse(DIPC_SFI_CFI_JUMP, (uintptr_t)buf, 0);
  return NULL;
}

/* ---- signal contexts (loader/signals.c) --------------------------------- */

/* What an instrumented handler may not change in the context its signal
 * interrupted, from the ucontext at uc: kept in the thread's state, which
 * no domain writes (a copy beside the kernel's frame was the handler's to
 * rewrite as well). Entries of handlers left by a jump go when a signal
 * comes again at or above them. 0; -1 when the thread has no state (or
 * the caller is not the loader), -2 when there is no room. */
static void kept_of(struct dipc_kept_context *k, const ucontext_t *uc) {
  k->uc = (uintptr_t)uc;
  memcpy(k->gregs, uc->uc_mcontext.gregs, sizeof k->gregs);
  k->stack[0] = (uint64_t)(uintptr_t)uc->uc_stack.ss_sp;
  k->stack[1] = (uint64_t)(uint32_t)uc->uc_stack.ss_flags;
  k->stack[2] = uc->uc_stack.ss_size;
  k->fpregs = (uint64_t)(uintptr_t)uc->uc_mcontext.fpregs;
}

_Static_assert(sizeof(((ucontext_t *)0)->uc_mcontext.gregs) ==
                   sizeof(((struct dipc_kept_context *)0)->gregs),
               "NGREG");

DIPC_EXPORT int __dipc_sfi_context_keep(const void *ucv) {
  struct dipc_thread *st = dipc_current_thread();
  if (!enforced() || !st || !dipc_trusted_caller(__builtin_return_address(0)))
    return -1;
  while (st->n_kept && st->kept[st->n_kept - 1].uc <= (uintptr_t)ucv)
    st->n_kept--;
  if (st->n_kept == RT_KEPT_CONTEXTS)
    return -2;
  /* Taken before it is filled, marked above any ucontext: a signal
   * nested in here keeps its own above it and drops nothing of it. */
  struct dipc_kept_context *k = &st->kept[st->n_kept];
  k->uc = UINTPTR_MAX;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  st->n_kept++;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  struct dipc_kept_context now;
  kept_of(&now, ucv);
  uintptr_t uc = now.uc;
  now.uc = UINTPTR_MAX;
  *k = now;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  k->uc = uc;
  return 0;
}

/* Puts back what the handler changed of the kept context; 1 if it had
 * changed something, 0 if not, -1 if nothing was kept for uc. */
DIPC_EXPORT int __dipc_sfi_context_restore(void *ucv) {
  struct dipc_thread *st = dipc_current_thread();
  if (!enforced() || !st || !dipc_trusted_caller(__builtin_return_address(0)) ||
      !st->n_kept || st->kept[st->n_kept - 1].uc != (uintptr_t)ucv)
    return -1;
  const struct dipc_kept_context *k = &st->kept[st->n_kept - 1];
  struct dipc_kept_context now;
  ucontext_t *uc = ucv;
  kept_of(&now, uc);
  int changed = memcmp(&now, k, sizeof now) != 0;
  memcpy(uc->uc_mcontext.gregs, k->gregs, sizeof k->gregs);
  uc->uc_stack.ss_sp = (void *)(uintptr_t)k->stack[0];
  uc->uc_stack.ss_flags = (int)k->stack[1];
  uc->uc_stack.ss_size = k->stack[2];
  uc->uc_mcontext.fpregs = (void *)(uintptr_t)k->fpregs;
  st->n_kept--;
  return changed;
}
