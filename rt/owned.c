/* owned.c - memory that is no domain's: the runtime's own state (tables,
 * thread region, proxies, import guards, libdipc's image), whatever key
 * its pages carry, and the stacks, which belong to the stack machinery
 * (a thread's own stack, its callee stacks, the unsafe stacks). Below the
 * domains (domain.c) and the rights (rights.c), which ask it. */
#define _GNU_SOURCE
#include <link.h>

#include "internal.h"

#define RT_MAX_REGIONS 64

struct region {
  uintptr_t lo, hi;
};
static struct region *regions; /* runtime key */
static unsigned nregions;

static int overlap(uintptr_t lo, uintptr_t hi, uintptr_t rlo, uintptr_t rhi) {
  return lo < rhi && rlo < hi;
}

void dipc_runtime_region(const void *p, size_t len) {
  if (!regions) /* in the window, which is a region itself */
    regions = dipc_alloc_runtime(RT_MAX_REGIONS * sizeof *regions);
  DIPC_CHECK(nregions < RT_MAX_REGIONS, "runtime region table full");
  regions[nregions++] = (struct region){dipc_page_down((uintptr_t)p),
                                        dipc_page_up((uintptr_t)p + len)};
}

int dipc_segment_holds(const struct dl_phdr_info *info, uintptr_t addr) {
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && addr >= lo && addr < lo + ph->p_memsz)
      return 1;
  }
  return 0;
}

/* libdipc's own code and data (its lock, bootstrap and panic stacks, the
 * pointers to its tables) are runtime state too. */
static int add_own_segments(struct dl_phdr_info *info, size_t size,
                            void *self) {
  (void)size;
  if (!dipc_segment_holds(info, (uintptr_t)self))
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD)
      dipc_runtime_region((void *)(info->dlpi_addr + ph->p_vaddr), ph->p_memsz);
  }
  return 1;
}

/* libdipc's code and the loader's: the only callers of the recovery and
 * signal gates, and callers whose pointers are their own (api.c). The
 * loader's calls of the gates are no tail calls (loader/trusted_call.h). */
struct text_range {
  uintptr_t lo, hi;
};
static struct text_range trusted_text[4];
static unsigned ntrusted_text;

static int add_trusted_text(struct dl_phdr_info *info, size_t size, void *p) {
  (void)size, (void)p;
  if (!dipc_segment_holds(info, (uintptr_t)dipc_rights_init) &&
      !(__dipc_loader_seal &&
        dipc_segment_holds(info, (uintptr_t)__dipc_loader_seal)))
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) &&
        ntrusted_text < sizeof trusted_text / sizeof trusted_text[0])
      trusted_text[ntrusted_text++] = (struct text_range){lo, lo + ph->p_memsz};
  }
  return 0;
}

int dipc_trusted_caller(const void *ret) {
  /* No loader: a harness acting as one (rt/ tests) handles the signals;
   * the gates' PKRU test is all there is (-fdipc programs need the loader,
   * require_loader.c). */
  if (!__dipc_loader_seal)
    return 1;
  for (unsigned i = 0; i < ntrusted_text; i++)
    if ((uintptr_t)ret - trusted_text[i].lo <
        trusted_text[i].hi - trusted_text[i].lo)
      return 1;
  return 0;
}

void dipc_rights_init(void) {
  DIPC_CHECK(dl_iterate_phdr(add_own_segments, (void *)dipc_rights_init) == 1,
             "cannot find libdipc's own segments");
  dl_iterate_phdr(add_trusted_text, NULL);
}

void dipc_runtime_regions_each(void (*fn)(uintptr_t lo, uintptr_t hi)) {
  for (unsigned i = 0; i < nregions; i++)
    fn(regions[i].lo, regions[i].hi);
}

int dipc_runtime_owned(uintptr_t lo, uintptr_t hi) {
  for (unsigned i = 0; i < nregions; i++)
    if (overlap(lo, hi, regions[i].lo, regions[i].hi))
      return 1;
  return dipc_proxy_overlaps(lo, hi);
}

static int within(uintptr_t lo, uintptr_t hi, uintptr_t rlo, uintptr_t rhi) {
  return lo >= rlo && hi <= rhi;
}

int dipc_stack_owner(uintptr_t lo, uintptr_t hi) {
  uintptr_t ulo = dipc_unsafe_lo,
            uhi = ulo + RT_UNSAFE_REGION_SIZE;
  if (overlap(lo, hi, ulo, uhi))
    return within(lo, hi, ulo, uhi) ? STACK_SHARED : STACK_MIXED;
  for (unsigned i = 0; i < RT_MAX_THREADS; i++) {
    const struct dipc_thread *st = dipc_thread_live(i);
    if (!st)
      continue;
    if (overlap(lo, hi, st->own_lo, st->own_hi))
      return within(lo, hi, st->own_lo, st->own_hi) ? 0 : STACK_MIXED;
    for (unsigned d = 0; d < RT_MAX_DOMAINS; d++) {
      const struct dipc_dstack *ds = &st->dstacks[d];
      if (ds->hi && overlap(lo, hi, ds->lo - RT_CALLEE_GUARD, ds->hi))
        return within(lo, hi, ds->lo, ds->hi) ? (int)d : STACK_MIXED;
      /* Its data mirror under sfi (dipc/sfi.h): the domain's too. */
      uintptr_t mlo = ds->lo - DIPC_SFI_DATA_MIRROR_DELTA,
                mhi = ds->hi - DIPC_SFI_DATA_MIRROR_DELTA;
      if (ds->hi && dipc_machine.backend == DIPC_BACKEND_SFI &&
          overlap(lo, hi, mlo, mhi))
        return within(lo, hi, mlo, mhi) ? (int)d : STACK_MIXED;
    }
  }
  return STACK_NONE;
}

int dipc_stack_owned(uintptr_t lo, uintptr_t hi) {
  return dipc_stack_owner(lo, hi) != STACK_NONE;
}
