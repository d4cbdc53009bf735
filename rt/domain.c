/* domain.c - domains (paper §5.2.2): APLs, page ownership, and the
 * emulated APL cache: at most RT_DOMAIN_KEYS domains hold a protection key
 * at a time; the others are parked under the runtime key and re-keyed on
 * demand, evicting the least recently used one (an "APL cache miss"). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include <linux/futex.h>

#include "internal.h"
#include "procmaps.h"

#define RT_FIRST_DOMAIN_KEY 3
#define RT_DENY_ALL 0xffffffffu

struct domain {
  uint8_t live;
  uint8_t heap; /* its heap region is mapped */
  int8_t key; /* -1: parked */
  uint32_t image;
  uint64_t last_use;
  uint32_t grantees; /* domains its APL lets it read or write */
};

struct range {
  uintptr_t lo, hi;
  uint32_t dom;
  int prot;
};

static struct domain *doms;
static uint8_t *apl; /* apl[src * RT_MAX_DOMAINS + dst] */
static struct range *ranges;
static unsigned nranges;
static int key_owner[RT_NUM_PKEYS]; /* domain holding each key, -1 free */
static uint64_t lru_clock;

const uint8_t *dipc_apl_column(uint32_t dst) { return &apl[dst]; }

uint8_t dipc_apl_get(uint32_t src, uint32_t dst) {
  return apl[(size_t)src * RT_MAX_DOMAINS + dst];
}

static int key_enabled(uint32_t image, int key) {
  return !((image >> (2 * key)) & 1);
}

static uint32_t allow(uint32_t image, int key, int write) {
  return image & ~((write ? 3u : 1u) << (2 * key));
}

static uint32_t compute_image(uint32_t d) {
  uint32_t image = allow(RT_DENY_ALL, RT_PKEY_STACK, 1);
  image = allow(image, doms[d].key, 1);
  for (int k = 0; k < RT_NUM_PKEYS; k++) {
    int x = key_owner[k];
    if (x < 0 || (uint32_t)x == d)
      continue;
    uint8_t p = dipc_apl_get(d, x);
    if (p >= DIPC_PERM_READ)
      image = allow(image, k, p >= DIPC_PERM_WRITE);
  }
  return image;
}

/* Recompute a resident domain's image and mark it current. */
static void refresh(uint32_t d) {
  doms[d].image = compute_image(d);
  dipc_publish_image(d, doms[d].image);
  dipc_machine.valid[d] = 1;
}

static void park(uint32_t d) {
  doms[d].image = RT_DENY_ALL;
  dipc_publish_image(d, RT_DENY_ALL);
  dipc_machine.valid[d] = 0;
}

static void rekey(uint32_t d, int key) {
  for (unsigned i = 0; i < nranges; i++)
    if (ranges[i].dom == d)
      DIPC_CHECK(dipc_tag_pages((void *)ranges[i].lo,
                                ranges[i].hi - ranges[i].lo, ranges[i].prot,
                                key) == 0,
                 "cannot re-key pages of domain %u", d);
  dipc_thread_rekey_dstacks(d, key); /* its stacks go with its pages */
}

/* Resident domains that may touch `of`'s pages (its grantees' images). */
static void refresh_grantors(uint32_t of) {
  for (int k = 0; k < RT_NUM_PKEYS; k++) {
    int f = key_owner[k];
    if (f >= 0 && (uint32_t)f != of && dipc_apl_get(f, of) >= DIPC_PERM_READ)
      refresh(f);
  }
}

void dipc_apl_set(uint32_t src, uint32_t dst, uint8_t perm) {
  uint8_t *e = &apl[(size_t)src * RT_MAX_DOMAINS + dst];
  doms[src].grantees += (perm >= DIPC_PERM_READ) - (*e >= DIPC_PERM_READ);
  *e = perm;
  dipc_sfi_row_set(src, dst, perm);
  if (dst == 0)
    dipc_vector_set_default_writer(src, perm >= DIPC_PERM_WRITE);
  if (doms[src].key >= 0)
    refresh(src);
}

void dipc_domains_init(void) {
  doms = dipc_alloc_runtime(RT_MAX_DOMAINS * sizeof *doms);
  apl = dipc_alloc_runtime((size_t)RT_MAX_DOMAINS * RT_MAX_DOMAINS);
  ranges = dipc_alloc_runtime(RT_MAX_RANGES * sizeof *ranges);
  for (int k = 0; k < RT_NUM_PKEYS; k++)
    key_owner[k] = -1;
  for (uint32_t d = 0; d < RT_MAX_DOMAINS; d++)
    park(d);
  doms[0].live = 1; /* the default domain: key 0, never virtualised */
  dipc_sfi_row_init(0);
  doms[0].key = 0;
  key_owner[0] = 0;
  refresh(0);
}

/* Domains an install must not evict: `of` and every domain in its APL. */
static int protected_for(uint32_t of, uint32_t v) {
  return v == of || dipc_apl_get(of, v) >= DIPC_PERM_READ;
}

/* Take a key from its least recently used holder that no running thread
 * can currently use, or return -1. Every image enabling the key is
 * invalidated first, so a proxy that published an image before the scan is
 * seen by it and one that publishes after it takes the slow path (which
 * needs dipc_lock). */
static int evict_one(uint32_t keep, uint32_t keep_apl_of) {
  uint8_t tried[RT_NUM_PKEYS] = {0};
  for (;;) {
    int victim_key = -1;
    for (int k = RT_FIRST_DOMAIN_KEY; k < RT_NUM_PKEYS; k++) {
      int d = key_owner[k];
      if (d < 0 || (uint32_t)d == keep || protected_for(keep_apl_of, d) ||
          tried[k])
        continue;
      if (victim_key < 0 ||
          doms[d].last_use < doms[key_owner[victim_key]].last_use)
        victim_key = k;
    }
    if (victim_key < 0)
      return -1;
    uint32_t v = key_owner[victim_key];
    uint8_t stale[RT_NUM_PKEYS] = {0};
    for (int k = 0; k < RT_NUM_PKEYS; k++) {
      int f = key_owner[k];
      if (f >= 0 && key_enabled(doms[f].image, victim_key)) {
        stale[k] = 1;
        dipc_machine.valid[f] = 0;
      }
    }
    atomic_thread_fence(memory_order_seq_cst);
    if (dipc_machine.backend == DIPC_BACKEND_MPK &&
        dipc_threads_using_key(victim_key)) {
      for (int k = 0; k < RT_NUM_PKEYS; k++)
        if (stale[k])
          dipc_machine.valid[key_owner[k]] = 1;
      tried[victim_key] = 1;
      continue;
    }
    rekey(v, RT_PKEY_RUNTIME);
    key_owner[victim_key] = -1;
    doms[v].key = -1;
    park(v);
    for (int k = 0; k < RT_NUM_PKEYS; k++)
      if (stale[k] && key_owner[k] >= 0)
        refresh(key_owner[k]);
    dipc_machine.apl_misses++;
    return victim_key;
  }
}

/* Give d a key (evicting if needed, sparing keep_apl_of's working set);
 * 0 on success, -1 if every key is in use. */
static int install(uint32_t d, uint32_t keep_apl_of) {
  doms[d].last_use = ++lru_clock;
  if (doms[d].key >= 0)
    return 0;
  int key = -1;
  for (int k = RT_FIRST_DOMAIN_KEY; k < RT_NUM_PKEYS && key < 0; k++)
    if (key_owner[k] < 0)
      key = k;
  if (key < 0 && (key = evict_one(d, keep_apl_of)) < 0)
    return -1;
  key_owner[key] = d;
  doms[d].key = key;
  rekey(d, key);
  refresh(d);
  refresh_grantors(d);
  return 0;
}

/* Make d resident with a current image, and the domains its APL lets it
 * read or write as far as keys allow (the rest stay parked: touching them
 * faults with the runtime key, an unresolved APL-cache miss). */
void dipc_domain_make_resident(uint32_t d) {
  DIPC_CHECK(d < RT_MAX_DOMAINS && doms[d].live, "bad domain %u", d);
  DIPC_CHECK(install(d, d) == 0,
             "all %d protection keys are held by "
             "domains running on some thread",
             RT_NUM_PKEYS - RT_FIRST_DOMAIN_KEY);
  if (doms[d].grantees)
    for (uint32_t x = 0; x < RT_MAX_DOMAINS; x++)
      if (doms[x].live && doms[x].key < 0 &&
          dipc_apl_get(d, x) >= DIPC_PERM_READ)
        install(x, d);
  refresh(d);
}

int dipc_domain_pkey_of(uint32_t d) { return doms[d].key; }

unsigned dipc_domain_resident_count(void) {
  unsigned n = 0;
  for (int k = 0; k < RT_NUM_PKEYS; k++)
    n += key_owner[k] >= 0;
  return n;
}

int dipc_domain_new(uint32_t *out, int named) {
  for (uint32_t d = 1; d < RT_MAX_DOMAINS; d++) {
    if (doms[d].live)
      continue;
    doms[d].key = -1;
    if (named) {
      int err = dipc_domain_map_heap(d);
      if (err)
        return err;
      doms[d].heap = 1;
    }
    doms[d].live = 1;
    dipc_sfi_row_init(d);
    park(d);
    /* Resident right away while keys are free; never evicts for it. */
    for (int k = RT_FIRST_DOMAIN_KEY; named && k < RT_NUM_PKEYS; k++)
      if (key_owner[k] < 0) {
        dipc_domain_make_resident(d);
        break;
      }
    *out = d;
    return 0;
  }
  return -DIPC_ENOSPC;
}

/* ---- page ownership ----------------------------------------------------- */

uint32_t dipc_domain_of(uintptr_t addr) {
  for (unsigned i = 0; i < nranges; i++)
    if (addr >= ranges[i].lo && addr < ranges[i].hi)
      return ranges[i].dom;
  return 0;
}

static int overlaps_any(uintptr_t lo, uintptr_t hi) {
  for (unsigned i = 0; i < nranges; i++)
    if (ranges[i].lo < hi && lo < ranges[i].hi)
      return 1;
  return 0;
}

int dipc_domain_code(uint32_t d, uintptr_t addr) {
  for (unsigned i = 0; i < nranges; i++)
    if (ranges[i].dom == d && addr >= ranges[i].lo && addr < ranges[i].hi)
      return (ranges[i].prot & PROT_EXEC) != 0;
  return 0;
}

int dipc_domain_owns(uint32_t d, uintptr_t lo, uintptr_t hi) {
  if (d == 0)
    return !overlaps_any(lo, hi);
  uintptr_t at = lo;
  while (at < hi) {
    unsigned i;
    for (i = 0; i < nranges; i++)
      if (ranges[i].dom == d && at >= ranges[i].lo && at < ranges[i].hi)
        break;
    if (i == nranges)
      return 0;
    at = ranges[i].hi;
  }
  return 1;
}

static int add_range(uintptr_t lo, uintptr_t hi, uint32_t d, int prot) {
  if (nranges == RT_MAX_RANGES)
    return -DIPC_ENOSPC;
  ranges[nranges++] = (struct range){lo, hi, d, prot};
  dipc_sfi_tag(lo, hi, d);
  return 0;
}

unsigned dipc_domain_forget_pages(uintptr_t lo, uintptr_t hi) {
  unsigned n = 0;
  for (unsigned i = 0; i < nranges;)
    if (ranges[i].dom != 0 && ranges[i].lo >= lo && ranges[i].hi <= hi) {
      dipc_sfi_tag(ranges[i].lo, ranges[i].hi, 0);
      ranges[i] = ranges[--nranges];
      n++;
    } else {
      i++;
    }
  return n;
}

static int key_for_pages(uint32_t d) {
  return doms[d].key >= 0 ? doms[d].key : RT_PKEY_RUNTIME;
}

/* What dom_mmap passes on to mmap(2): protections, and the mapping types
 * and hints that keep the new pages exactly [p, p + length): never
 * MAP_FIXED (it would replace other memory, the runtime's too),
 * MAP_GROWSDOWN (growth would leave the domain's range) or huge pages. */
#define MMAP_PROT (PROT_READ | PROT_WRITE | PROT_EXEC)
#define MMAP_FLAGS                                                             \
  (MAP_SHARED | MAP_PRIVATE | MAP_SHARED_VALIDATE | MAP_ANONYMOUS |            \
   MAP_NORESERVE | MAP_POPULATE | MAP_STACK)

long dipc_op_dom_mmap(uint32_t d, const uint64_t *a) {
  int prot = (int)a[2], flags = (int)a[3];
  size_t len = a[1];
  if (a[2] & ~(uint64_t)MMAP_PROT || a[3] & ~(uint64_t)MMAP_FLAGS)
    return -DIPC_EINVAL;
  if (d != 0 && nranges == RT_MAX_RANGES)
    return -DIPC_ENOSPC;
  void *p = dipc_sys_mmap_for_domain((void *)a[0], len, prot, flags,
                                     (int)a[4], (int64_t)a[5]);
  if (p == MAP_FAILED)
    return -errno;
  if (d == 0)
    return (long)p;
  len = (len + RT_PAGE - 1) & ~(RT_PAGE - 1);
  if (dipc_tag_pages(p, len, prot, key_for_pages(d)) != 0) {
    int err = errno;
    dipc_sys(SYS_munmap, (long)p, (long)len, 0, 0, 0);
    return -err;
  }
  DIPC_CHECK(add_range((uintptr_t)p, (uintptr_t)p + len, d, prot) == 0,
             "range table");
  return (long)p;
}

/* A named domain's heap region (dipc/abi.h): mapped whole when the
 * domain is made, without reserving swap, so that it is one range and one
 * mapping; a page costs memory once the domain's allocator touches it
 * (loader/heap.c). -DIPC_ENOMEM if something else holds the addresses. */
int dipc_domain_map_heap(uint32_t d) {
  void *lo = (void *)dipc_domain_heap(d);
  if (nranges == RT_MAX_RANGES)
    return -DIPC_ENOSPC;
  void *p = dipc_sys_mmap(lo, DIPC_HEAP_STRIDE, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
                              MAP_FIXED_NOREPLACE,
                          -1);
  if (p != lo) {
    if (p != MAP_FAILED)
      dipc_sys(SYS_munmap, (long)p, DIPC_HEAP_STRIDE, 0, 0, 0);
    return -DIPC_ENOMEM;
  }
  if (dipc_tag_pages(p, DIPC_HEAP_STRIDE, PROT_READ | PROT_WRITE,
                     key_for_pages(d)) != 0) {
    dipc_sys(SYS_munmap, (long)p, DIPC_HEAP_STRIDE, 0, 0, 0);
    return -DIPC_ENOMEM;
  }
  return add_range((uintptr_t)p, (uintptr_t)p + DIPC_HEAP_STRIDE, d,
                   PROT_READ | PROT_WRITE);
}

/* Releases the heap locks held by thread slot + 1 `holder` (every lock
 * when 0): its call died inside a domain's allocator, or (after fork) the
 * holder is gone (dipc/abi.h DIPC_HEAP_LOCK). The heap may lose the block
 * being allocated; it stays the domain's. */
void dipc_domain_heaps_release(uint32_t holder) {
  for (uint32_t d = 1; d < RT_MAX_DOMAINS; d++) {
    if (!doms[d].live || !doms[d].heap)
      continue;
    uint32_t *lock = (uint32_t *)(dipc_domain_heap(d) + DIPC_HEAP_LOCK);
    uint32_t *owner = (uint32_t *)(dipc_domain_heap(d) + DIPC_HEAP_OWNER);
    if (__atomic_load_n(lock, __ATOMIC_ACQUIRE) == 0 ||
        (holder && __atomic_load_n(owner, __ATOMIC_RELAXED) != holder))
      continue;
    __atomic_store_n(owner, 0, __ATOMIC_RELAXED);
    __atomic_store_n(lock, 0, __ATOMIC_RELEASE);
    dipc_sys(SYS_futex, (long)lock, FUTEX_WAKE_PRIVATE, INT32_MAX, 0, 0);
  }
}

struct remap_ctx {
  uint32_t dst;
  int dry_run;
  unsigned pieces;
};

/* Kernel-made mappings ([vdso], [vvar], ...) are nobody's to move; the
 * heap and named anonymous memory are ordinary pages. */
static int special_mapping(const char *path) {
  return path[0] == '[' && strcmp(path, "[heap]") != 0 &&
         strncmp(path, "[anon:", 6) != 0;
}

static int move_piece(uintptr_t lo, uintptr_t hi, int prot, const char *path,
                      void *p) {
  struct remap_ctx *c = p;
  if (c->dry_run) {
    c->pieces++;
    return special_mapping(path) ? -DIPC_ENOENT : 0;
  }
  if (c->dst != 0 && add_range(lo, hi, c->dst, prot) != 0)
    return -DIPC_ENOSPC;
  if (c->dst == 0)
    dipc_sfi_tag(lo, hi, 0);
  DIPC_CHECK(dipc_tag_pages((void *)lo, hi - lo, prot,
                            c->dst ? key_for_pages(c->dst) : 0) == 0,
             "cannot re-key remapped pages");
  return 0;
}

/* Cut [lo, hi) out of src's ranges, handing each piece to move_piece. */
static int carve(uint32_t src, uintptr_t lo, uintptr_t hi,
                 struct remap_ctx *c) {
  for (unsigned i = 0; i < nranges; i++) {
    struct range r = ranges[i];
    if (r.dom != src || r.hi <= lo || r.lo >= hi)
      continue;
    uintptr_t cut_lo = r.lo > lo ? r.lo : lo, cut_hi = r.hi < hi ? r.hi : hi;
    ranges[i] = ranges[--nranges];
    if (r.lo < cut_lo)
      add_range(r.lo, cut_lo, src, r.prot);
    if (cut_hi < r.hi)
      add_range(cut_hi, r.hi, src, r.prot);
    int err = move_piece(cut_lo, cut_hi, r.prot, "", c);
    if (err)
      return err;
    i = (unsigned)-1; /* the table changed: rescan */
  }
  return 0;
}

/* The default domain's pages are the memory no domain owns, less the
 * runtime's state and the threads' stacks (and kernel-made mappings, which
 * the dry run refuses). */
static int default_pages(uintptr_t lo, uintptr_t hi) {
  return dipc_domain_owns(0, lo, hi) && !dipc_runtime_owned(lo, hi) &&
         !dipc_stack_owned(lo, hi);
}

/* Whether a shared mapping overlaps [lo, hi): pages of one are its
 * object's, which other mappings may show too, under their own tags and
 * keys. Moved to vault, such a page stayed the source domain's to read
 * and write through another mapping of the file it had put over a page of
 * its own (test/e2e/attack-sfi-unmapped-tag.c): only private pages move. */
struct shared_walk {
  uintptr_t lo, hi;
};

static int shared_in(const struct dipc_mapping *m, void *p) {
  const struct shared_walk *w = p;
  return m->shared && m->lo < w->hi && m->hi > w->lo;
}

static int shared_mapping(uintptr_t lo, uintptr_t hi) {
  struct shared_walk w = {lo, hi};
  return dipc_maps_each(shared_in, &w) != 0;
}

int dipc_op_dom_remap(uint32_t dst, uint32_t src, uintptr_t addr, size_t size) {
  uintptr_t hi = addr + size;
  if ((addr | size) & (RT_PAGE - 1) || size == 0 || hi < addr)
    return -DIPC_EINVAL;
  /* A domain's pages may have been unmapped behind the runtime's back. */
  if (src == 0 ? !default_pages(addr, hi)
               : !dipc_domain_owns(src, addr, hi) || !dipc_mapped(addr, hi))
    return -DIPC_ENOENT;
  if (dst != src && dipc_machine.backend != DIPC_BACKEND_NONE &&
      shared_mapping(addr, hi))
    return -DIPC_EPERM;
  struct remap_ctx c = {dst, 1, 0};
  if (src == 0) {
    int err = dipc_for_each_mapping(addr, hi, move_piece, &c);
    if (err)
      return err;
  } else {
    for (unsigned i = 0; i < nranges; i++)
      c.pieces +=
          ranges[i].dom == src && ranges[i].lo < hi && addr < ranges[i].hi;
  }
  if (dst == src)
    return 0; /* the pages are where they should be */
  /* Each piece (or range of src cut) adds at most one range for dst and
   * two for what is left of src. */
  if (nranges + 2 * c.pieces + 2 + 16 > RT_MAX_RANGES)
    return -DIPC_ENOSPC;
  c.dry_run = 0;
  if (src == 0)
    return dipc_for_each_mapping(addr, hi, move_piece, &c);
  return carve(src, addr, hi, &c);
}

uint32_t dipc_domain_reserved_owner(uintptr_t lo, uintptr_t hi) {
  uint32_t d = 0;
  for (uintptr_t at = lo; at < hi;) {
    unsigned i;
    for (i = 0; i < nranges; i++)
      if (at >= ranges[i].lo && at < ranges[i].hi)
        break;
    if (i == nranges || ranges[i].dom == 0 || ranges[i].prot != PROT_NONE ||
        (d && ranges[i].dom != d))
      return 0;
    d = ranges[i].dom;
    at = ranges[i].hi;
  }
  return d;
}

int dipc_domain_key_copy(uintptr_t copy, uintptr_t lo, uintptr_t hi,
                         int prot) {
  for (unsigned i = 0; i < nranges; i++) {
    uintptr_t a = ranges[i].lo > lo ? ranges[i].lo : lo,
              b = ranges[i].hi < hi ? ranges[i].hi : hi;
    if (ranges[i].dom != 0 && a < b &&
        dipc_tag_pages((void *)(copy + (a - lo)), b - a, prot,
                       key_for_pages(ranges[i].dom)) != 0)
      return -1;
  }
  return 0;
}

int dipc_domain_set_prot(uintptr_t lo, uintptr_t hi, int prot) {
  for (unsigned i = 0; i < nranges; i++) {
    struct range r = ranges[i];
    if (r.dom == 0 || r.hi <= lo || r.lo >= hi || r.prot == prot)
      continue;
    if (nranges + 2 > RT_MAX_RANGES)
      return -1;
    uintptr_t a = r.lo > lo ? r.lo : lo, b = r.hi < hi ? r.hi : hi;
    ranges[i] = (struct range){a, b, r.dom, prot};
    if (r.lo < a)
      ranges[nranges++] = (struct range){r.lo, a, r.dom, r.prot};
    if (b < r.hi)
      ranges[nranges++] = (struct range){b, r.hi, r.dom, r.prot};
  }
  return 0;
}

/* The domains standing for another process (a watcher said so of their
 * reservation for its memory). Only they may run with a TCB of their own
 * pages (dipc_lent_fs): an ordinary domain with a TCB of its making would
 * steer libc's thread state (errno, malloc's cache) while the runtime
 * runs for it. */
static uint8_t foreign_dom[RT_MAX_DOMAINS];

void dipc_domain_set_foreign(uint32_t dom) {
  if (dom < RT_MAX_DOMAINS)
    foreign_dom[dom] = 1;
}

int dipc_domain_is_foreign(uint32_t dom) {
  return dom < RT_MAX_DOMAINS && foreign_dom[dom];
}
