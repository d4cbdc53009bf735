/* heap_alloc.c - the allocator of one domain's heap region (heap_alloc.h).
 *
 * Region layout: a header page (lock, size-class lists, free runs, top),
 * then the chunk map (one u32 per 64 KiB chunk), then data chunks. A chunk
 * is a slab of one size class (a header, then equal blocks carved lazily),
 * or part of a run of whole chunks: a large block in use or a free run.
 * The map says which, so that free() checks a pointer before it trusts
 * anything stored next to it. Free runs coalesce with their neighbours
 * and, from 1 MiB, give their pages back (MADV_DONTNEED). This code may not touch the
 * default domain's memory for writing (no errno: raw system calls). */
#define _GNU_SOURCE
#include "heap_alloc.h"

#include <dipc/abi.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#define CHUNK_SHIFT 16
#define CHUNK ((uintptr_t)1 << CHUNK_SHIFT)
#define NUM_CHUNKS (DIPC_HEAP_STRIDE >> CHUNK_SHIFT)
#define PAGE 4096
#define MAP_OFFSET PAGE
#define FIRST_CHUNK ((MAP_OFFSET + NUM_CHUNKS * 4 + CHUNK - 1) >> CHUNK_SHIFT)
#define SLAB_HEADER 64
#define SMALL_MAX 8192
#define GIVE_BACK_CHUNKS 16 /* free runs of 1 MiB and more go back */

/* Chunk map entries: kind in the top 4 bits, a count or class below. */
enum {
  KIND_SHIFT = 28,
  K_UNUSED = 0,       /* above top */
  K_SLAB = 1,         /* class */
  K_LARGE = 2,        /* first chunk of a block in use: chunks */
  K_INSIDE = 3,       /* other chunks of a block in use */
  K_FREE = 4,         /* first chunk of a free run: chunks */
  K_FREE_TAIL = 5,    /* last chunk of a free run: chunks */
};
#define ENTRY(kind, n) (((uint32_t)(kind) << KIND_SHIFT) | (uint32_t)(n))
#define KIND(e) ((e) >> KIND_SHIFT)
#define COUNT(e) ((e) & ((1u << KIND_SHIFT) - 1))

/* 16-byte steps to 256, then four classes per power of two to 8 KiB: all
 * above 256 are multiples of 64, so blocks of a class of 64 or more are
 * 64-aligned (slab data starts 64 bytes into a chunk). */
static const uint16_t class_size[] = {
    16,   32,   48,   64,   80,   96,   112,  128,  144,  160,  176,
    192,  208,  224,  240,  256,  320,  384,  448,  512,  640,  768,
    896,  1024, 1280, 1536, 1792, 2048, 2560, 3072, 3584, 4096, 5120,
    6144, 7168, 8192};
#define NUM_CLASSES (sizeof class_size / sizeof class_size[0])

struct slab {
  uint32_t cls, nfree, cap, carved;
  void *free; /* freed blocks, linked through their first word */
  struct slab *next, *prev;
};
_Static_assert(sizeof(struct slab) <= SLAB_HEADER, "slab header");

struct run {
  struct run *next, *prev;
};

struct heap {
  uint32_t lock;  /* DIPC_HEAP_LOCK: 0 free, 1 held, 2 held with waiters */
  uint32_t owner; /* DIPC_HEAP_OWNER: the holder's thread slot + 1 */
  uint32_t ready;
  uint64_t top; /* chunks below it have map entries */
  struct slab *partial[NUM_CLASSES];
  struct run *runs;
};
_Static_assert(sizeof(struct heap) <= MAP_OFFSET, "heap header");
_Static_assert(DIPC_HEAP_LOCK == 0 && DIPC_HEAP_OWNER == 4,
               "the runtime finds the lock and its owner (dipc/abi.h)");

/* Every link, index and count read from the region is the domain's to
 * write: under `sfi` this code is not instrumented, so one rewritten to
 * point out of the region would make it write there (a free-list link
 * to the domain's own row of the rights matrix, then realloc's copy
 * into it). Under `sfi` each is checked before it is followed, and a
 * bad one stops the call (heap_corrupt); loops over links are bounded.
 * Another thread of the domain can rewrite a value between its check and
 * its use (an attack round's flipped a slab's class between the two loads
 * of `s->cls` and had the list head's store land in the next domain's
 * heap): so each is read once (ONCE) into a local, checked, and only the
 * local used; and every store's address is bounded by the region's
 * constants (chunk indices below NUM_CHUNKS, classes below NUM_CLASSES),
 * never by a count read from it (`top`). Under `mpk` the allocator's
 * writes are the domain's own (PKRU), under `none` nothing is enforced:
 * there it trusts them, as before. */
int heap_alloc_guarded;
#define GUARD(region, ok)                                                      \
  do {                                                                         \
    if (heap_alloc_guarded && !(ok))                                           \
      heap_corrupt(region);                                                    \
  } while (0)

/* One load of a word the domain may rewrite at any time. */
#define ONCE(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)

/* A freed small block's second word: catches most double frees. */
#define FREED_MARK 0x6672656564dcafe5ull

static long raw_syscall(long nr, long a, long b, long c, long d) {
  long r;
  register long r10 __asm__("r10") = d;
  __asm__ volatile("syscall"
                   : "=a"(r)
                   : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
                   : "rcx", "r11", "memory");
  return r;
}

/* A futex lock (Drepper's "mutex 2") that records its holder, so that
 * the runtime can release it when it unwinds a call of the holder that
 * died inside the allocator (recovery.c). */
static void lock(struct heap *h, uint32_t me) {
  uint32_t c = 0;
  if (!__atomic_compare_exchange_n(&h->lock, &c, 1, 0, __ATOMIC_ACQUIRE,
                                   __ATOMIC_RELAXED)) {
    if (c != 2)
      c = __atomic_exchange_n(&h->lock, 2, __ATOMIC_ACQUIRE);
    while (c != 0) {
      raw_syscall(SYS_futex, (long)&h->lock, 0x80 /* WAIT_PRIVATE */, 2, 0);
      c = __atomic_exchange_n(&h->lock, 2, __ATOMIC_ACQUIRE);
    }
  }
  __atomic_store_n(&h->owner, me, __ATOMIC_RELAXED);
}

static void unlock(struct heap *h) {
  __atomic_store_n(&h->owner, 0, __ATOMIC_RELAXED);
  if (__atomic_exchange_n(&h->lock, 0, __ATOMIC_RELEASE) == 2)
    raw_syscall(SYS_futex, (long)&h->lock, 0x81 /* WAKE_PRIVATE */, 1, 0);
}

static uint32_t *chunk_map(uintptr_t region) {
  return (uint32_t *)(region + MAP_OFFSET);
}

static uintptr_t chunk_addr(uintptr_t region, uint64_t i) {
  return region + (i << CHUNK_SHIFT);
}

/* The index of the data chunk p starts, if p is the start of one below
 * the top; else 0 (never a data chunk). */
static uint64_t chunk_index(uintptr_t region, const struct heap *h,
                            const void *p) {
  uintptr_t a = (uintptr_t)p;
  uint64_t i = (a - region) >> CHUNK_SHIFT;
  if (a < region || (a - region) % CHUNK || i < FIRST_CHUNK ||
      i >= NUM_CHUNKS || i >= ONCE(h->top))
    return 0;
  return i;
}

/* A free run's head: a chunk whose map entry says so; its chunks (read
 * once, within the region), or 0. */
static uint64_t run_count(uintptr_t region, const struct heap *h,
                          const struct run *r) {
  uint64_t i = chunk_index(region, h, r);
  uint32_t e = i ? ONCE(chunk_map(region)[i]) : 0;
  return i && KIND(e) == K_FREE && COUNT(e) && COUNT(e) <= NUM_CHUNKS - i
             ? COUNT(e)
             : 0;
}

static int run_ok(uintptr_t region, const struct heap *h,
                  const struct run *r) {
  return run_count(region, h, r) != 0;
}

/* A slab of class cls, its counters in range. */
static int slab_ok(uintptr_t region, const struct heap *h,
                   const struct slab *s, unsigned cls);

static void give_back(uintptr_t lo, uintptr_t hi) {
  if (hi > lo)
    raw_syscall(SYS_madvise, (long)lo, (long)(hi - lo), MADV_DONTNEED, 0);
}

/* ---- runs of chunks ----------------------------------------------------- */

static void run_mark(uintptr_t region, uint64_t i, uint64_t n, int kind) {
  uint32_t *map = chunk_map(region);
  if (i < FIRST_CHUNK || !n || n > NUM_CHUNKS - i)
    heap_corrupt(region); /* (from a checked count: never) */
  if (kind == K_FREE) {
    map[i] = ENTRY(K_FREE, n);
    map[i + n - 1] = n > 1 ? ENTRY(K_FREE_TAIL, n) : ENTRY(K_FREE, n);
    return;
  }
  map[i] = ENTRY(K_LARGE, n);
  for (uint64_t j = 1; j < n; j++)
    map[i + j] = ENTRY(K_INSIDE, 0);
}

/* r: a checked run. */
static void run_unlink(uintptr_t region, struct heap *h, struct run *r) {
  struct run *prev = ONCE(r->prev), *next = ONCE(r->next);
  GUARD(region, !prev || run_ok(region, h, prev));
  GUARD(region, !next || run_ok(region, h, next));
  if (prev)
    prev->next = next;
  else
    h->runs = next;
  if (next)
    next->prev = prev;
}

static void run_link(uintptr_t region, struct heap *h, struct run *r) {
  struct run *first = ONCE(h->runs);
  GUARD(region, !first || run_ok(region, h, first));
  r->prev = NULL;
  r->next = first;
  if (first)
    first->prev = r;
  h->runs = r;
}

/* First index of n free chunks, marked in use; 0 when the region is full. */
static uint64_t run_take(uintptr_t region, struct heap *h, uint64_t n) {
  uint64_t steps = 0;
  for (struct run *r = ONCE(h->runs); r; r = ONCE(r->next)) {
    uint64_t have = run_count(region, h, r);
    GUARD(region, have && ++steps <= NUM_CHUNKS);
    uint64_t i = ((uintptr_t)r - region) >> CHUNK_SHIFT;
    if (!have || have < n)
      continue;
    run_unlink(region, h, r);
    if (have > n) {
      run_mark(region, i + n, have - n, K_FREE);
      run_link(region, h, (struct run *)chunk_addr(region, i + n));
    }
    run_mark(region, i, n, K_LARGE);
    return i;
  }
  uint64_t i = ONCE(h->top);
  GUARD(region, i >= FIRST_CHUNK && i <= NUM_CHUNKS);
  if (i < FIRST_CHUNK || n > NUM_CHUNKS - i)
    return 0;
  h->top = i + n;
  run_mark(region, i, n, K_LARGE);
  return i;
}

/* Chunks [i, i + n) are free again: merged with free neighbours, their
 * pages given back (but the first, which links the run), or the top
 * lowered when they end at it. */
static void run_put(uintptr_t region, struct heap *h, uint64_t i, uint64_t n) {
  uint32_t *map = chunk_map(region);
  uint64_t top = ONCE(h->top);
  GUARD(region, top <= NUM_CHUNKS && i >= FIRST_CHUNK && n && n <= top - i);
  if (i < FIRST_CHUNK || !n || top > NUM_CHUNKS || n > top - i)
    return; /* (unguarded: mpk, none) */
  uint32_t after = i + n < top ? ONCE(map[i + n]) : 0;
  if (KIND(after) == K_FREE) {
    struct run *r = (struct run *)chunk_addr(region, i + n);
    uint64_t m = run_count(region, h, r);
    GUARD(region, m && m == COUNT(after) && m <= NUM_CHUNKS - i - n);
    if (m && m <= NUM_CHUNKS - i - n) {
      run_unlink(region, h, r);
      map[i + n] = map[i + n + m - 1] = 0;
      n += m;
    }
  }
  uint32_t before = i > FIRST_CHUNK ? ONCE(map[i - 1]) : 0;
  if (KIND(before) == K_FREE_TAIL || KIND(before) == K_FREE) {
    uint64_t m = COUNT(before);
    struct run *r = m && m <= i - FIRST_CHUNK
                        ? (struct run *)chunk_addr(region, i - m)
                        : NULL;
    GUARD(region, r && run_count(region, h, r) == m);
    if (r) {
      run_unlink(region, h, r);
      map[i - 1] = 0;
      i -= m;
      n += m;
    }
  }
  /* Smaller free runs keep their pages: a block freed and allocated again
   * (a loop's buffer) would otherwise fault them all in each time. */
  int back = n >= GIVE_BACK_CHUNKS;
  if (back)
    give_back(chunk_addr(region, i) + PAGE, chunk_addr(region, i + n));
  if (i + n == top) {
    if (back)
      give_back(chunk_addr(region, i), chunk_addr(region, i) + PAGE);
    for (uint64_t j = i; j < i + n; j++)
      map[j] = 0;
    h->top = i;
    return;
  }
  for (uint64_t j = i; j < i + n; j++)
    map[j] = 0;
  run_mark(region, i, n, K_FREE);
  run_link(region, h, (struct run *)chunk_addr(region, i));
}

/* ---- slabs -------------------------------------------------------------- */

static unsigned class_of(size_t size) {
  unsigned c = 0;
  while (class_size[c] < size)
    c++;
  return c;
}

static uint32_t slab_cap(unsigned cls) {
  return (uint32_t)((CHUNK - SLAB_HEADER) / class_size[cls]);
}

static int slab_ok(uintptr_t region, const struct heap *h,
                   const struct slab *s, unsigned cls) {
  uint64_t i = chunk_index(region, h, s);
  return i && chunk_map(region)[i] == ENTRY(K_SLAB, cls) && s->cls == cls &&
         s->cap == slab_cap(cls) && s->carved <= s->cap &&
         s->nfree <= s->cap;
}

/* s, a checked slab of class cls, first in its class's list. */
static void slab_link(uintptr_t region, struct heap *h, struct slab *s,
                      unsigned cls) {
  struct slab *first = ONCE(h->partial[cls]);
  GUARD(region, !first || slab_ok(region, h, first, cls));
  s->prev = NULL;
  s->next = first;
  if (first)
    first->prev = s;
  h->partial[cls] = s;
}

static struct slab *slab_new(uintptr_t region, struct heap *h, unsigned cls) {
  uint64_t i = run_take(region, h, 1);
  if (!i)
    return NULL;
  chunk_map(region)[i] = ENTRY(K_SLAB, cls);
  struct slab *s = (struct slab *)chunk_addr(region, i);
  s->cls = cls;
  s->cap = slab_cap(cls);
  s->nfree = s->cap;
  s->carved = 0;
  s->free = NULL;
  slab_link(region, h, s, cls);
  return s;
}

/* s: a checked slab of class cls (the caller's checked local, never
 * s->cls read again). */
static void slab_unlink(uintptr_t region, struct heap *h, struct slab *s,
                        unsigned cls) {
  struct slab *prev = ONCE(s->prev), *next = ONCE(s->next);
  GUARD(region, !prev || slab_ok(region, h, prev, cls));
  GUARD(region, !next || slab_ok(region, h, next, cls));
  if (prev)
    prev->next = next;
  else
    h->partial[cls] = next;
  if (next)
    next->prev = prev;
  s->next = s->prev = NULL;
}

static void *slab_alloc(uintptr_t region, struct heap *h, unsigned cls) {
  struct slab *s = ONCE(h->partial[cls]);
  GUARD(region, !s || slab_ok(region, h, s, cls));
  if (!s && !(s = slab_new(region, h, cls)))
    return NULL;
  uint32_t nfree = ONCE(s->nfree), cap = slab_cap(cls);
  GUARD(region, nfree > 0 && nfree <= cap);
  uint64_t *b = ONCE(s->free);
  if (b) { /* a carved block of this slab, within its chunk */
    uintptr_t off = (uintptr_t)b - (uintptr_t)s - SLAB_HEADER;
    GUARD(region, (uintptr_t)b >= (uintptr_t)s + SLAB_HEADER &&
                      off % class_size[cls] == 0 && off / class_size[cls] < cap);
    s->free = (void *)ONCE(b[0]);
  } else {
    uint32_t carved = ONCE(s->carved);
    GUARD(region, carved < cap);
    s->carved = carved + 1;
    b = (uint64_t *)((uintptr_t)s + SLAB_HEADER +
                     (uintptr_t)carved * class_size[cls]);
  }
  b[0] = b[1] = 0;
  s->nfree = nfree - 1;
  if (nfree == 1)
    slab_unlink(region, h, s, cls);
  return b;
}

/* ---- the interface ------------------------------------------------------ */

static struct heap *heap_of(uintptr_t region, uint32_t me) {
  struct heap *h = (struct heap *)region;
  if (!__atomic_load_n(&h->ready, __ATOMIC_ACQUIRE)) {
    /* First use: the region is zero-filled; set up under the lock. */
    lock(h, me);
    if (!h->ready) {
      h->top = FIRST_CHUNK;
      __atomic_store_n(&h->ready, 1, __ATOMIC_RELEASE);
    }
    unlock(h);
  }
  return h;
}

void *heap_alloc(uintptr_t region, uint32_t me, size_t size, size_t align) {
  if (align > HEAP_MAX_ALIGN || size > DIPC_HEAP_STRIDE)
    return NULL;
  struct heap *h = heap_of(region, me);
  if (size == 0)
    size = 1;
  if (align > 16 && align <= 64 && size <= SMALL_MAX)
    size = (size + 63) & ~(size_t)63;
  void *p = NULL;
  lock(h, me);
  GUARD(region, h->top >= FIRST_CHUNK && h->top <= NUM_CHUNKS);
  if (size <= SMALL_MAX && align <= 64) {
    p = slab_alloc(region, h, class_of(size));
  } else {
    uint64_t i = run_take(region, h, (size + CHUNK - 1) >> CHUNK_SHIFT);
    p = i ? (void *)chunk_addr(region, i) : NULL;
  }
  unlock(h);
  return p;
}

/* The chunk of p and its map entry; -1 if p lies outside the data. */
static int64_t chunk_of(uintptr_t region, const struct heap *h, const void *p) {
  uint64_t i = ((uintptr_t)p - region) >> CHUNK_SHIFT;
  return (uintptr_t)p >= region && i >= FIRST_CHUNK && i < NUM_CHUNKS &&
                 i < ONCE(h->top)
             ? (int64_t)i
             : -1;
}

/* Checks p; its slab and the slab's class (small) or chunk count
 * (large), each read once. Under the lock. */
static int check(uintptr_t region, struct heap *h, const void *p,
                 struct slab **slab, unsigned *cls, uint64_t *chunks,
                 const char **why) {
  int64_t i = chunk_of(region, h, p);
  uint32_t e = i < 0 ? 0 : ONCE(chunk_map(region)[i]);
  *slab = NULL;
  *chunks = 0;
  if (KIND(e) == K_LARGE && (uintptr_t)p == chunk_addr(region, i)) {
    *chunks = COUNT(e);
    GUARD(region, *chunks && *chunks <= NUM_CHUNKS - (uint64_t)i);
    return 0;
  }
  if (KIND(e) != K_SLAB || COUNT(e) >= NUM_CLASSES) {
    GUARD(region, KIND(e) != K_SLAB); /* a class out of range */
    *why = "not a block of the domain's heap";
    return -1;
  }
  struct slab *s = (struct slab *)chunk_addr(region, i);
  unsigned c = COUNT(e);
  GUARD(region, slab_ok(region, h, s, c));
  uintptr_t off = (uintptr_t)p - (uintptr_t)s - SLAB_HEADER;
  if ((uintptr_t)p < (uintptr_t)s + SLAB_HEADER ||
      off % class_size[c] != 0 || off / class_size[c] >= ONCE(s->carved) ||
      off / class_size[c] >= slab_cap(c)) {
    *why = "not the start of a block of the domain's heap";
    return -1;
  }
  if (((const uint64_t *)p)[1] == FREED_MARK) {
    *why = "freed twice";
    return -1;
  }
  *slab = s;
  *cls = c;
  return 0;
}

size_t heap_usable(uintptr_t region, uint32_t me, const void *p,
                   const char **why) {
  struct heap *h = heap_of(region, me);
  struct slab *s;
  unsigned cls = 0;
  uint64_t chunks;
  lock(h, me);
  int bad = check(region, h, p, &s, &cls, &chunks, why);
  unlock(h);
  if (bad)
    return 0;
  return s ? class_size[cls] : chunks << CHUNK_SHIFT;
}

int heap_free(uintptr_t region, uint32_t me, void *p, const char **why) {
  struct heap *h = heap_of(region, me);
  struct slab *s;
  unsigned cls = 0;
  uint64_t chunks;
  lock(h, me);
  if (check(region, h, p, &s, &cls, &chunks, why) != 0) {
    unlock(h);
    return -1;
  }
  if (!s) {
    run_put(region, h, ((uintptr_t)p - region) >> CHUNK_SHIFT, chunks);
    unlock(h);
    return 0;
  }
  uint64_t *b = p;
  b[0] = (uint64_t)ONCE(s->free);
  b[1] = FREED_MARK;
  s->free = b;
  uint32_t nfree = ONCE(s->nfree), cap = slab_cap(cls);
  GUARD(region, nfree < cap);
  s->nfree = nfree + 1;
  if (nfree == 0)
    slab_link(region, h, s, cls);
  /* An empty slab goes back unless it is its class's only one. */
  if (nfree + 1 == cap && (ONCE(s->prev) || ONCE(s->next))) {
    slab_unlink(region, h, s, cls);
    run_put(region, h, ((uintptr_t)s - region) >> CHUNK_SHIFT, 1);
  }
  unlock(h);
  return 0;
}
