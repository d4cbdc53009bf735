/* rights.c - what memory an API argument may name. The runtime writes and
 * reads with every right, so an address a caller passes is checked against
 * the caller's rights first: the runtime's own state (tables, thread
 * region, proxies, import guards, libdipc's image) belongs to no domain,
 * whatever key its pages carry, and stacks belong to the stack machinery:
 * they are never pages to hand out or import slots. Where stacks count
 * (capabilities, signal contexts), a thread's own stack is the default
 * domain's, a callee stack its domain's, and the unsafe stacks every
 * domain's to write (docs/runtime.md §2). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

/* Highest user address on x86-64 with 5-level paging; kernel pages (and
 * the vsyscall page /proc/self/maps lists) lie above. */
#define RT_USER_TOP (1UL << 56)
#define RT_MAX_REGIONS 64

struct region {
  uintptr_t lo, hi;
};
static struct region *regions; /* runtime key */
static unsigned nregions;

static uintptr_t page_down(uintptr_t a) { return a & ~(RT_PAGE - 1); }
static uintptr_t page_up(uintptr_t a) {
  return (a + RT_PAGE - 1) & ~(RT_PAGE - 1);
}

static int overlap(uintptr_t lo, uintptr_t hi, uintptr_t rlo, uintptr_t rhi) {
  return lo < rhi && rlo < hi;
}

void dipc_runtime_region(const void *p, size_t len) {
  if (!regions) /* in the window, which is a region itself */
    regions = dipc_alloc_runtime(RT_MAX_REGIONS * sizeof *regions);
  DIPC_CHECK(nregions < RT_MAX_REGIONS, "runtime region table full");
  regions[nregions++] =
      (struct region){page_down((uintptr_t)p), page_up((uintptr_t)p + len)};
}

static int segment_holds(const struct dl_phdr_info *info, uintptr_t addr) {
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
  if (!segment_holds(info, (uintptr_t)self))
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD)
      dipc_runtime_region((void *)(info->dlpi_addr + ph->p_vaddr), ph->p_memsz);
  }
  return 1;
}

void dipc_rights_init(void) {
  DIPC_CHECK(dl_iterate_phdr(add_own_segments, (void *)dipc_rights_init) == 1,
             "cannot find libdipc's own segments");
}

int dipc_runtime_owned(uintptr_t lo, uintptr_t hi) {
  for (unsigned i = 0; i < nregions; i++)
    if (overlap(lo, hi, regions[i].lo, regions[i].hi))
      return 1;
  return dipc_proxy_overlaps(lo, hi);
}

#define STACK_NONE (-1)   /* overlaps no stack */
#define STACK_SHARED (-2) /* lies in the unsafe-stack region */
#define STACK_MIXED (-3)  /* overlaps a stack without lying in one */

static int within(uintptr_t lo, uintptr_t hi, uintptr_t rlo, uintptr_t rhi) {
  return lo >= rlo && hi <= rhi;
}

/* Whose stack [lo, hi) lies in: the domain of a callee stack (guard page
 * included), 0 for a thread's own stack, STACK_SHARED for the unsafe
 * stacks; STACK_NONE or STACK_MIXED otherwise. */
static int stack_owner(uintptr_t lo, uintptr_t hi) {
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
    }
  }
  return STACK_NONE;
}

int dipc_stack_owned(uintptr_t lo, uintptr_t hi) {
  return stack_owner(lo, hi) != STACK_NONE;
}

int dipc_mapped(uintptr_t lo, uintptr_t hi) {
  if (hi <= lo || hi > RT_USER_TOP)
    return 0;
  /* msync fails with ENOMEM on any unmapped page; async-signal-safe. */
  uintptr_t a = page_down(lo);
  return msync((void *)a, page_up(hi) - a, MS_ASYNC) == 0;
}

int dipc_default_memory(uintptr_t lo, uintptr_t hi, int stacks_too) {
  return hi > lo && dipc_domain_owns(0, lo, hi) &&
         !dipc_runtime_owned(lo, hi) &&
         (stacks_too || !dipc_stack_owned(lo, hi)) && dipc_mapped(lo, hi);
}

uint8_t dipc_right_on(uint32_t dom, uintptr_t lo, uintptr_t hi,
                      int stacks_too) {
  if (hi <= lo || hi > RT_USER_TOP)
    return DIPC_PERM_NIL;
  if (stacks_too) {
    int owner = stack_owner(lo, hi);
    if (owner == STACK_MIXED)
      return DIPC_PERM_NIL;
    if (owner == STACK_SHARED)
      return dipc_mapped(lo, hi) ? DIPC_PERM_WRITE : DIPC_PERM_NIL;
    if (owner > 0) /* a callee stack: its domain's, like its pages */
      return (uint32_t)owner == dom ? DIPC_PERM_OWNER
                                    : dipc_apl_get(dom, (uint32_t)owner);
  }
  uint32_t x = dipc_domain_of(lo);
  if (x == 0 ? !dipc_default_memory(lo, hi, stacks_too)
             : !dipc_domain_owns(x, page_down(lo), hi))
    return DIPC_PERM_NIL;
  return x == dom ? DIPC_PERM_OWNER : dipc_apl_get(dom, x);
}

/* Reads one line of /proc/self/maps into buf (the rest of a longer one is
 * dropped); 0 at the end. */
static int maps_line(FILE *f, char *buf, size_t size) {
  if (!fgets(buf, (int)size, f))
    return 0;
  if (!strchr(buf, '\n'))
    for (int c; (c = fgetc(f)) != EOF && c != '\n';)
      ;
  return 1;
}

int dipc_for_each_mapping(uintptr_t lo, uintptr_t hi,
                          int (*fn)(uintptr_t, uintptr_t, int, const char *,
                                    void *),
                          void *ctx) {
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f)
    return -DIPC_ENOMEM; /* e.g. in a child forked under mpk */
  char line[512], perms[8];
  uintptr_t at = lo;
  int err = 0;
  while (!err && at < hi && maps_line(f, line, sizeof line)) {
    unsigned long s, e;
    int name = 0;
    if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &s, &e, perms, &name) < 3 ||
        e <= at)
      continue;
    if (s > at)
      break;
    char *path = name ? line + name : line + strlen(line);
    path[strcspn(path, "\n")] = '\0';
    int prot = (perms[0] == 'r' ? PROT_READ : 0) |
               (perms[1] == 'w' ? PROT_WRITE : 0) |
               (perms[2] == 'x' ? PROT_EXEC : 0);
    uintptr_t end = e < hi ? e : hi;
    err = fn(at, end, prot, path, ctx);
    at = end;
  }
  fclose(f);
  return err ? err : at < hi ? -DIPC_ENOENT : 0;
}

static int and_prot(uintptr_t lo, uintptr_t hi, int prot, const char *path,
                    void *ctx) {
  (void)lo, (void)hi, (void)path;
  *(int *)ctx &= prot;
  return 0;
}

/* Without /proc/self/maps (a child forked under mpk: Landlock opened only
 * the parent's /proc/PID, loader/landlock.c): whether the kernel reads
 * [lo, hi) into a pipe and writes it back from there. Small ranges only
 * (a pipe holds 64 KiB); in trusted mode, where keys allow everything.
 * PROT_EXEC is not known: never reported. */
static int probe_prot(uintptr_t lo, uintptr_t hi) {
  if (hi - lo > 4096)
    return -1;
  int fds[2], prot = 0;
  if (pipe2(fds, O_CLOEXEC) != 0)
    return -1;
  size_t n = hi - lo;
  if (write(fds[1], (void *)lo, n) == (ssize_t)n) {
    prot = PROT_READ;
    if (read(fds[0], (void *)lo, n) == (ssize_t)n)
      prot |= PROT_WRITE;
  }
  close(fds[0]);
  close(fds[1]);
  return prot & PROT_READ ? prot : -1;
}

int dipc_mapping_prot(uintptr_t lo, uintptr_t hi) {
  int prot = PROT_READ | PROT_WRITE | PROT_EXEC;
  int err = dipc_for_each_mapping(lo, hi, and_prot, &prot);
  if (err == -DIPC_ENOMEM && !dipc_mapped(lo, hi))
    return -1;
  return err == -DIPC_ENOMEM ? probe_prot(lo, hi) : err ? -1 : prot;
}
