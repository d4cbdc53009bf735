/* sfi.c - the `sfi` backend (dipc/sfi.h): CODOMs' access checks compiled
 * into -fdipc-sfi code. This file keeps what those checks read: the
 * shadow of page tags (who owns each page) and the rights matrix (what
 * each domain's APL lets it do to pages of each tag), and holds the slow
 * path the checks call when the fast path says no or cannot tell.
 *
 * Tags follow page ownership (domain.c, thread.c call dipc_sfi_tag where
 * `mpk` re-keys pages); rows follow the APLs (dipc_sfi_row_set). Neither
 * is reachable by instrumented code: the matrix lies in the runtime's
 * window (tagged DIPC_SFI_TAG_RUNTIME), and the shadow's own tags are an
 * unmapped hole, so a check of an access to the shadow faults on its own
 * tag load. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>

#include "dipc/sfi.h"
#include "internal.h"

#define SHADOW ((uint16_t *)DIPC_SFI_SHADOW_ADDR)
#define RIGHTS ((uint8_t *)DIPC_SFI_RIGHTS_ADDR)
#define USER_TOP (1ull << 47)

_Static_assert(DIPC_SFI_SHADOW_SIZE == (USER_TOP >> DIPC_SFI_PAGE_SHIFT) * 2,
               "sfi.h: one u16 per page of the user address space");
_Static_assert(DIPC_SFI_TAG_STACK < DIPC_SFI_TAGS, "sfi.h: tags fit a row");
_Static_assert(DIPC_SFI_RIGHTS_ADDR >= RT_SCRATCH_B + RT_SCRATCH_SIZE &&
                   DIPC_SFI_RIGHTS_ADDR + DIPC_SFI_RIGHTS_SIZE <=
                       DIPC_SFI_TRAP_ADDR &&
                   DIPC_SFI_TRAP_ADDR + RT_PAGE <= RT_RO_TABLE_ADDR,
               "sfi.h: the matrix and the trap page lie in the window's "
               "free part (layout.h)");
_Static_assert(DS_SIZE == 1 << 5, "sfi.S: shl by 5 indexes the dstacks");
_Static_assert(DIPC_SFI_CUR_DOM_GS_OFFSET == ST_CUR_DOM,
               "sfi.h: the running domain is struct dipc_thread's cur_dom");

void dipc_sfi_tag(uintptr_t lo, uintptr_t hi, uint32_t tag) {
  if (dipc_machine.backend != DIPC_BACKEND_SFI || hi <= lo || hi > USER_TOP)
    return;
  for (uintptr_t p = lo >> DIPC_SFI_PAGE_SHIFT;
       p <= (hi - 1) >> DIPC_SFI_PAGE_SHIFT; ++p)
    if (SHADOW[p] != tag) /* leave untouched shadow pages unpopulated */
      SHADOW[p] = (uint16_t)tag;
}

uint32_t dipc_sfi_tag_of(uintptr_t addr) {
  return addr < USER_TOP ? SHADOW[addr >> DIPC_SFI_PAGE_SHIFT]
                         : DIPC_SFI_TAG_RUNTIME;
}

static uint8_t bits_of(uint8_t perm) {
  return (perm >= DIPC_PERM_READ ? DIPC_SFI_READ : 0) |
         (perm >= DIPC_PERM_WRITE ? DIPC_SFI_WRITE : 0);
}

void dipc_sfi_row_set(uint32_t dom, uint32_t tag, uint8_t perm) {
  if (dipc_machine.backend != DIPC_BACKEND_SFI)
    return;
  RIGHTS[(size_t)dom * DIPC_SFI_TAGS + tag] = bits_of(perm);
}

/* The shadow and matrix exist: the backend is sfi, or an instrumented
 * program runs under another backend, whose checks must then all pass. */
static int checks_mapped;

/* A live domain's row: its own pages and the shared ones to read and
 * write, the rest as its APL says (set later by dipc_apl_set). Under
 * another backend no page has a tag but 0, which every row allows. */
void dipc_sfi_row_init(uint32_t dom) {
  if (!checks_mapped)
    return;
  uint8_t *row = RIGHTS + (size_t)dom * DIPC_SFI_TAGS;
  if (dipc_machine.backend != DIPC_BACKEND_SFI) {
    row[0] = DIPC_SFI_READ | DIPC_SFI_WRITE;
    return;
  }
  memset(row, 0, DIPC_SFI_TAGS);
  row[dom] = row[DIPC_SFI_TAG_SHARED] = DIPC_SFI_READ | DIPC_SFI_WRITE;
}

static void tag_runtime(uintptr_t lo, uintptr_t hi) {
  dipc_sfi_tag(lo, hi, DIPC_SFI_TAG_RUNTIME);
}

/* libdipc's and the loader's images: what they write (the backend, the
 * tables' pointers, the interceptors' state) is the runtime's; what they
 * only read (code, the strings they hand the program, dipc_backend()'s)
 * is shared, kept read-only by its pages' protection. Writable segments
 * last, so that a page both share is the runtime's. */
static int tag_own_images(struct dl_phdr_info *info, size_t size, void *p) {
  (void)size, (void)p;
  if (!dipc_segment_holds(info, (uintptr_t)dipc_sfi_init) &&
      !dipc_segment_holds(info, (uintptr_t)__dipc_loader_seal))
    return 0;
  for (int writable = 0; writable < 2; writable++)
    for (int i = 0; i < info->dlpi_phnum; i++) {
      const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
      uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
      if (ph->p_type == PT_LOAD && !!(ph->p_flags & PF_W) == writable)
        dipc_sfi_tag(dipc_page_down(lo), dipc_page_up(lo + ph->p_memsz),
                     writable ? DIPC_SFI_TAG_RUNTIME : DIPC_SFI_TAG_SHARED);
    }
  return 0;
}

int dipc_user_allowed(const void *p, size_t size, int write, const void *ret) {
  return dipc_machine.backend != DIPC_BACKEND_SFI || size == 0 ||
         dipc_trusted_caller(ret) ||
         dipc_sfi_allowed((uintptr_t)p, size, (uint32_t)write);
}

/* The shadow (64 GiB of address space, reserved; untouched pages read as
 * tag 0), the hole where the shadow's own tags would be, the matrix and
 * the trap page (left as the window's reservation: PROT_NONE). Then, under
 * sfi, every page of the window is the runtime's until tagged otherwise.
 * Under the other backends (a program compiled with -fdipc-sfi run with
 * mpk or none) the checks find tag 0 everywhere, which rows allow. */
void dipc_sfi_init(void) {
  int sfi = dipc_machine.backend == DIPC_BACKEND_SFI;
  void *s = dipc_sys_mmap((void *)DIPC_SFI_SHADOW_ADDR, DIPC_SFI_SHADOW_SIZE,
                          PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
                              MAP_FIXED_NOREPLACE,
                          -1);
  if (s != (void *)DIPC_SFI_SHADOW_ADDR) {
    /* Only instrumented code needs it (a dlopened library, say). */
    DIPC_CHECK(!sfi, "sfi: cannot reserve the tag shadow at %#llx",
               DIPC_SFI_SHADOW_ADDR);
    if (s != MAP_FAILED)
      dipc_sys(SYS_munmap, (long)s, DIPC_SFI_SHADOW_SIZE, 0, 0, 0);
    return;
  }
  uintptr_t self =
      (uintptr_t)&SHADOW[DIPC_SFI_SHADOW_ADDR >> DIPC_SFI_PAGE_SHIFT];
  size_t self_len = DIPC_SFI_SHADOW_SIZE >> DIPC_SFI_PAGE_SHIFT << 1;
  DIPC_CHECK(dipc_sys_mprotect((void *)self, self_len, PROT_NONE) == 0,
             "sfi: cannot close the shadow's own tags");
  DIPC_CHECK(dipc_sys_map_window(DIPC_SFI_RIGHTS_ADDR, DIPC_SFI_RIGHTS_SIZE,
                                 PROT_READ | PROT_WRITE) == 0,
             "sfi: cannot map the rights matrix at %#x", DIPC_SFI_RIGHTS_ADDR);
  checks_mapped = 1;
  /* The window and the other runtime regions, then libdipc's image and
   * the loader's, segment by segment. */
  dipc_runtime_regions_each(tag_runtime);
  dl_iterate_phdr(tag_own_images, NULL);
  /* The read-only alias of the tables and the runtime vector. */
  dipc_sfi_tag(RT_RO_TABLE_ADDR, RT_RW_TABLE_ADDR, DIPC_SFI_TAG_SHARED);
}

/* ---- the slow path ------------------------------------------------------ */

/* Whether every page of [lo, hi) still has the tag a capability was made
 * over (cap.c): one whose pages went to another domain covers nothing. */
static int tags_kept(uintptr_t lo, uintptr_t hi, uint64_t tag) {
  for (uintptr_t p = lo >> DIPC_SFI_PAGE_SHIFT;
       p <= (hi - 1) >> DIPC_SFI_PAGE_SHIFT; ++p)
    if ((uint64_t)SHADOW[p] + 1 != tag)
      return 0;
  return 1;
}

static int cap_covers(const struct dipc_thread *st, uintptr_t lo,
                      uintptr_t hi, uint32_t write) {
  for (unsigned i = 0; i < DIPC_CAP_REGS; ++i) {
    const struct dipc_cap_reg *c = &st->caps[i];
    if (c->perm >= (write ? DIPC_PERM_WRITE : DIPC_PERM_READ) &&
        lo >= c->base && hi <= c->base + c->size &&
        tags_kept(lo, hi, c->sfi_tag))
      return 1;
  }
  return 0;
}

/* Whether [lo, hi) lies in st's callee stack of dom, for a read or a move
 * of the stack pointer (DIPC_SFI_STACK_MOVE) below the frames of dom's
 * outer calls: the only accesses to pages tagged DIPC_SFI_TAG_STACK that
 * the thread, running as dom, may make. Its cur, while dom runs, is where
 * the running call's frames start (the proxy that left dom for a call that
 * called it again lowered it, gate.S): above lie those outer calls'
 * frames and the frames of libc that called a callback proxy. Reads: libc
 * hands callbacks pointers into its frames (nftw's struct FTW,
 * dl_iterate_phdr's info). Never a write: every frame holds return
 * addresses and saved registers that compiled code and libc trust (the
 * locals a check reaches are in the data mirror, sfi.h). */
static int own_stack_allows(const struct dipc_thread *st, uint32_t dom,
                            uintptr_t lo, uintptr_t hi, uint32_t write) {
  const struct dipc_dstack *ds = st ? &st->dstacks[dom % RT_MAX_DOMAINS] : NULL;
  if (write && write != DIPC_SFI_STACK_MOVE)
    return 0;
  return ds && ds->hi && lo >= ds->lo && hi <= ds->hi &&
         (!write || hi <= ds->cur);
}

/* Whether the running domain may access [addr, addr + size): every page by
 * its tag (a callee stack's: the thread's own of the running domain only),
 * else a capability register covering the whole range (paper §4.2). On
 * no, the first page refused is kept in the thread's state for the
 * report. Runs on the caller's stack, as trusted code. */
DIPC_HIDDEN int dipc_sfi_allowed(uintptr_t addr, uint64_t size,
                                 uint32_t write) {
  if (dipc_machine.backend != DIPC_BACKEND_SFI || size == 0)
    return 1;
  struct dipc_thread *st = dipc_current_thread();
  uint32_t dom = st ? st->cur_dom % RT_MAX_DOMAINS : 0;
  uintptr_t hi = addr + size;
  uintptr_t bad = addr;
  /* A call's argument is read; a move of the stack pointer writes. */
  uint8_t need = write && write != DIPC_SFI_CALL_ARG ? DIPC_SFI_WRITE
                                                     : DIPC_SFI_READ;
  if (hi > addr && hi <= USER_TOP) {
    const uint8_t *row = RIGHTS + (size_t)dom * DIPC_SFI_TAGS;
    int own_stack = own_stack_allows(st, dom, addr, hi, write);
    uintptr_t p = addr >> DIPC_SFI_PAGE_SHIFT;
    uintptr_t last = (hi - 1) >> DIPC_SFI_PAGE_SHIFT;
    for (; p <= last; ++p)
      if (!(row[SHADOW[p]] & need) &&
          !(own_stack && SHADOW[p] == DIPC_SFI_TAG_STACK))
        break;
    if (p > last)
      return 1;
    /* No capability reaches a callee stack (cap.c): a page may have
     * become one since the capability was made. */
    int stack = 0;
    for (uintptr_t q = addr >> DIPC_SFI_PAGE_SHIFT; q <= last && !stack; ++q)
      stack = SHADOW[q] == DIPC_SFI_TAG_STACK;
    if (st && !stack && cap_covers(st, addr, hi, need == DIPC_SFI_WRITE))
      return 1;
    if ((p << DIPC_SFI_PAGE_SHIFT) > addr)
      bad = p << DIPC_SFI_PAGE_SHIFT;
  }
  if (st)
    st->sfi_fault = (__typeof__(st->sfi_fault)){
        .addr = bad, .size = size, .write = need == DIPC_SFI_WRITE,
        .dom = dom};
  return 0;
}

/* Whether the running domain may unmap, remap, re-protect or map over
 * every page of [addr, addr + len): pages its row lets it write, as under
 * `mpk` (the loader's interceptors of those calls, under sfi). Never the
 * runtime's window, the shared pages, the tag shadow, memory past the
 * user half, or pages next to the runtime's. */
/* The compiled-in check of a C library call's pointer arguments tests their
 * first byte only (docs/compiler.md): what libc writes past it runs on
 * from memory the domain may write. A page no domain maps between that
 * memory and the runtime's makes such a write fault there. */
DIPC_EXPORT int __dipc_sfi_next_to_runtime(uintptr_t addr, uint64_t len) {
  uintptr_t hi = addr + len;
  if (dipc_machine.backend != DIPC_BACKEND_SFI)
    return 0;
  if (len == 0 || hi < addr || hi > USER_TOP - RT_PAGE || addr < RT_PAGE)
    return 1;
  return (addr < RT_WINDOW_HI + RT_PAGE && hi + RT_PAGE > RT_WINDOW_LO) ||
         (addr < DIPC_SFI_SHADOW_ADDR + DIPC_SFI_SHADOW_SIZE + RT_PAGE &&
          hi + RT_PAGE > DIPC_SFI_SHADOW_ADDR) ||
         dipc_sfi_tag_of(addr - RT_PAGE) == DIPC_SFI_TAG_RUNTIME ||
         dipc_sfi_tag_of(hi) == DIPC_SFI_TAG_RUNTIME;
}

DIPC_EXPORT int __dipc_sfi_may_replace(uintptr_t addr, uint64_t len) {
  if (dipc_machine.backend != DIPC_BACKEND_SFI)
    return 1;
  struct dipc_thread *st = dipc_current_thread();
  uint32_t dom = st ? st->cur_dom % RT_MAX_DOMAINS : 0;
  const uint8_t *row = RIGHTS + (size_t)dom * DIPC_SFI_TAGS;
  uintptr_t hi = addr + len;
  if (__dipc_sfi_next_to_runtime(addr, len))
    return 0;
  for (uintptr_t p = addr >> DIPC_SFI_PAGE_SHIFT;
       p <= (hi - 1) >> DIPC_SFI_PAGE_SHIFT; ++p)
    if (SHADOW[p] >= DIPC_MAX_DOMAINS || !(row[SHADOW[p]] & DIPC_SFI_WRITE))
      return 0;
  return 1;
}

/* __dipc_sfi_check (sfi.S) found an access refused and faulted on the
 * trap page with the check's return address on top of the stack: for
 * recovery the fault is the instrumented code's, right after its call. */
DIPC_HIDDEN extern const char __dipc_sfi_trap[];

int dipc_sfi_trap_fixup(void *ucv, struct dipc_sfi_undo *undo) {
  ucontext_t *uc = ucv;
  greg_t *r = uc->uc_mcontext.gregs;
  if (dipc_machine.backend != DIPC_BACKEND_SFI ||
      (uintptr_t)r[REG_RIP] != (uintptr_t)__dipc_sfi_trap)
    return 0;
  undo->rip = r[REG_RIP];
  undo->rsp = r[REG_RSP];
  r[REG_RIP] = *(greg_t *)r[REG_RSP];
  r[REG_RSP] += 8;
  return 1;
}

void dipc_sfi_trap_undo(void *ucv, const struct dipc_sfi_undo *undo) {
  ucontext_t *uc = ucv;
  uc->uc_mcontext.gregs[REG_RIP] = undo->rip;
  uc->uc_mcontext.gregs[REG_RSP] = undo->rsp;
}

DIPC_EXPORT int __dipc_sfi_fault_info(uintptr_t *addr, uint64_t *size,
                                      int *write, uint32_t *running,
                                      uint32_t *owner_tag, uint32_t *kind,
                                      uintptr_t *expected) {
  struct dipc_thread *st = dipc_current_thread();
  if (dipc_machine.backend != DIPC_BACKEND_SFI || !st ||
      !dipc_trusted_caller(__builtin_return_address(0)))
    return 0;
  DIPC_USER_WRITE(addr, sizeof *addr);
  DIPC_USER_WRITE(size, sizeof *size);
  DIPC_USER_WRITE(write, sizeof *write);
  DIPC_USER_WRITE(running, sizeof *running);
  DIPC_USER_WRITE(owner_tag, sizeof *owner_tag);
  DIPC_USER_WRITE(kind, sizeof *kind);
  DIPC_USER_WRITE(expected, sizeof *expected);
  *addr = st->sfi_fault.addr;
  *size = st->sfi_fault.size;
  *write = (int)st->sfi_fault.write;
  *running = st->sfi_fault.dom;
  *owner_tag = dipc_sfi_tag_of(st->sfi_fault.addr);
  *kind = st->sfi_fault.kind;
  *expected = st->sfi_fault.expected;
  return 1;
}

/* ---- munmap of instrumented code --------------------------------------- *
 * A page keeps its tag until someone tags it again: a domain's pages it
 * unmapped left a hole carrying its tag, and the next mapping there (main's
 * at that address, a big malloc block, a thread's stack) was the domain's
 * to read and write and no longer its maker's
 * (test/e2e/attack-sfi-unmapped-tag.c). The loader's munmap
 * (loader/sfi_syscalls.c, also mremap's shrink) has the runtime make the
 * call under its lock, the pages tagged the runtime's meanwhile (nothing
 * mapped there in between is the domain's), then 0, what every mapping
 * libc makes has. The range must have one tag (restored if the call
 * fails). */

/* Pages the running domain may replace, none in the domains' heap
 * regions (the loader's allocator's). */
static int unmap_allowed(uintptr_t addr, uint64_t len) {
  return len && addr + len > addr &&
         (addr >= DIPC_HEAP_END || addr + len <= DIPC_HEAP_ADDR) &&
         __dipc_sfi_may_replace(addr, len);
}

long dipc_op_sfi_unmap(uintptr_t addr, uint64_t len) {
  if (dipc_machine.backend != DIPC_BACKEND_SFI || !unmap_allowed(addr, len) ||
      (addr & (RT_PAGE - 1)))
    return -EPERM;
  uintptr_t hi = dipc_page_up(addr + len); /* addr is page aligned */
  uint32_t tag = dipc_sfi_tag_of(addr);
  for (uintptr_t p = addr; p < hi; p += RT_PAGE)
    if (dipc_sfi_tag_of(p) != tag)
      return -EPERM;
  dipc_sfi_tag(addr, hi, DIPC_SFI_TAG_RUNTIME);
  long r = dipc_sys(SYS_munmap, (long)addr, (long)len, 0, 0, 0);
  dipc_sfi_tag(addr, hi, r == 0 ? 0 : tag);
  return r;
}

