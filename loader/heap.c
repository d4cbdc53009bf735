/* heap.c - malloc and friends, per domain. Code running as a named domain
 * allocates from that domain's heap region (dipc/abi.h, heap_alloc.c);
 * the default domain, and every thread before the runtime is up, uses the
 * C library's allocator. A block is freed or resized only by code of the
 * domain whose heap holds it: anything else is a bug or an attack, and the
 * process (inside a cross-domain call: the call) stops with a message, as
 * glibc does for a bad free.
 *
 * Which domain runs comes from the heap hint of the thread's public page,
 * read without leaving the caller's rights. Any domain can write that
 * hint, and runtime code (fopen of /proc files) runs with it unchanged,
 * so under mpk a hint is used only when the thread's PKRU is that
 * domain's image; otherwise the image decides. Without keys nothing is
 * isolated and the hint is taken as is. */
#define _GNU_SOURCE
#include "heap.h"
#include "domains.h"
#include "heap_alloc.h"

#include <dipc/abi.h>
#include <dipc/rt.h>
#include <dipc/sfi.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "../rt/layout.h"
#include "interpose.h"
#include "../rt/say.h"
#include "stream_memory.h"
#include "thread_state.h"

void *__libc_malloc(size_t);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *__libc_memalign(size_t, size_t);
void __libc_free(void *);

#define EXPORT __attribute__((visibility("default")))

/* Set once the runtime and the loader's domains are up; 2 when RDGSBASE
 * works and so the hint can be read. */
static int heaps_state;
/* Whether PKRU says which domain runs (mpk backend on a CPU with PKU). */
static int check_pkru;
/* Where the thread's running domain is read from: under `sfi` the
 * runtime's own word, which the compiled-in checks read and no domain
 * may write; elsewhere the public page's hint, which any domain may
 * write (checked against PKRU under `mpk`, taken as is under `none`). */
static uintptr_t cur_dom_offset = DIPC_DOM_GS_OFFSET;

void heap_start(void) {
#ifndef HWCAP2_FSGSBASE
#define HWCAP2_FSGSBASE (1 << 1)
#endif
  check_pkru = *(const volatile uint8_t *)RT_VECTOR_NO_PKU == 0 &&
               strcmp(dipc_backend(), "mpk") == 0;
  if (strcmp(dipc_backend(), "sfi") == 0) {
    cur_dom_offset = DIPC_SFI_CUR_DOM_GS_OFFSET;
    heap_alloc_guarded = 1;
  }
  __atomic_store_n(&heaps_state,
                   getauxval(AT_HWCAP2) & HWCAP2_FSGSBASE ? 2 : 1,
                   __ATOMIC_RELEASE);
}

static uint32_t rdpkru(void) {
  uint32_t eax, edx;
  __asm__ volatile(".byte 0x0f, 0x01, 0xee" : "=a"(eax), "=d"(edx) : "c"(0));
  return eax;
}

/* The named domain whose PKRU image is pkru, 0 if none is: the default
 * domain, the runtime's own code (libc calls it makes) or a signal
 * handler's entry. A running domain is resident: its own key makes its
 * image unlike any other's. */
static uint32_t domain_of_pkru(uint32_t pkru) {
  const volatile uint32_t *image = (const volatile uint32_t *)RT_RO_TABLE_ADDR;
  for (uint32_t d = 1; d < DIPC_MAX_DOMAINS; d++)
    if (image[d] == pkru)
      return d;
  return 0;
}

/* The domain whose heap serves this thread: the domain it runs as, or 0
 * (the C library's heap) for the default domain, for a thread that never
 * crossed a domain (it has no state in the runtime), and for a domain that
 * may write the default domain's memory (it shares the C library's state,
 * stdio buffers say, with the default domain). *slot is the thread's slot
 * + 1 (the heap lock's owner). */
static uint32_t running_domain(uint32_t *slot) {
  if (__atomic_load_n(&heaps_state, __ATOMIC_ACQUIRE) != 2)
    return 0;
  uintptr_t gs = loader_own_state();
  if (!gs)
    return 0;
  uint32_t d = *(const volatile uint32_t *)(gs + cur_dom_offset);
  if (check_pkru) {
    uint32_t pkru = rdpkru();
    if (d >= DIPC_MAX_DOMAINS ||
        pkru != ((const volatile uint32_t *)RT_RO_TABLE_ADDR)[d])
      d = domain_of_pkru(pkru); /* forged, or runtime code: the truth */
  } else if (d >= DIPC_MAX_DOMAINS) {
    d = 0;
  }
  if (slot) {
    uintptr_t lo = *(const volatile uintptr_t *)DIPC_VECTOR_THREADS_LO;
    *slot = (uint32_t)((gs - lo) / RT_THREAD_STRIDE) + 1;
  }
  return ((const volatile uint8_t *)RT_VECTOR_DEFAULT_WRITERS)[d] ? 0 : d;
}

int heap_serves_domain(void) { return running_domain(NULL) != 0; }

/* The domain whose heap serves a request of caller's (a return address):
 * the running domain's, but libc's heap (0) for libc's own state inside a
 * libc-state window (stream_memory.h). */
static uint32_t serving_domain(const void *caller, uint32_t *slot) {
  uint32_t d = running_domain(slot);
  return d && libc_state_serves(caller) ? 0 : d;
}

static uintptr_t region_of(uint32_t d) { return DIPC_HEAP_REGION(d); }

/* The domain whose heap holds p, -1 if none does. */
static long owner_of(const void *p) {
  uintptr_t a = (uintptr_t)p;
  if (a < DIPC_HEAP_ADDR + DIPC_HEAP_STRIDE || a >= DIPC_HEAP_END)
    return -1;
  return (long)((a - DIPC_HEAP_ADDR) / DIPC_HEAP_STRIDE);
}

static void say_domain(char *out, size_t size, long d) {
  const char *name = d == 0   ? "default"
                     : d > 0 ? domains_name_of_heap(region_of((uint32_t)d))
                             : NULL;
  if (name)
    snprintf(out, size, "'%s'", name);
  else
    snprintf(out, size, "%ld", d);
}

/* A block the running domain may not free or resize: stop it. */
__attribute__((noreturn)) static void bad_block(const char *fn, const void *p,
                                                uint32_t running, long owner,
                                                const char *why) {
  char me[80], them[80];
  say_domain(me, sizeof me, running);
  say_domain(them, sizeof them, owner);
  if (why)
    dipc_say("dipc: %s(%p) in domain %s: %s\n", fn, p, me, why);
  else if (owner < 0)
    dipc_say("dipc: %s(%p) in domain %s: not a block of its heap\n", fn, p,
             me);
  else
    dipc_say("dipc: %s(%p) in domain %s: the block belongs to domain %s's "
             "heap\n",
             fn, p, me, them);
  abort(); /* inside a call: the callee's crash (recovery) */
}

/* Whether the running domain d owns p; stops it if not. */
static void check_owner(const char *fn, const void *p, uint32_t d) {
  long owner = owner_of(p);
  if (owner != (long)d && !(d == 0 && owner < 0))
    bad_block(fn, p, d, owner, NULL);
}

void heap_corrupt(uintptr_t region) {
  char me[80];
  say_domain(me, sizeof me, owner_of((const void *)region));
  dipc_say("dipc: the heap of domain %s is corrupt (its allocator's links "
           "or counts were overwritten)\n",
           me);
  abort(); /* inside a call: the callee's crash (recovery) */
}

/* No errno on failure here: it is the default domain's memory. */
static void *domain_alloc(uint32_t d, uint32_t me, size_t size,
                          size_t align) {
  return heap_alloc(region_of(d), me, size, align);
}

EXPORT void *malloc(size_t size) {
  const void *caller = __builtin_return_address(0);
  void *s = stream_memory_take(size, caller);
  if (s)
    return s;
  uint32_t me, d = serving_domain(caller, &me);
  return d ? domain_alloc(d, me, size, 16) : __libc_malloc(size);
}

static void free_for(void *p, const void *caller) {
  if (!p || stream_memory_put(p, caller))
    return;
  uint32_t me, d = serving_domain(caller, &me);
  check_owner("free", p, d);
  if (!d) {
    __libc_free(p);
    return;
  }
  const char *why = NULL;
  if (heap_free(region_of(d), me, p, &why) != 0)
    bad_block("free", p, d, d, why);
}

EXPORT void free(void *p) { free_for(p, __builtin_return_address(0)); }

EXPORT void *calloc(size_t n, size_t size) {
  const void *caller = __builtin_return_address(0);
  if (!size || n <= (size_t)-1 / size) {
    void *s = stream_memory_take(n * size, caller);
    if (s) {
      memset(s, 0, n * size);
      return s;
    }
  }
  uint32_t me, d = serving_domain(caller, &me);
  if (!d)
    return __libc_calloc(n, size);
  if (size && n > (size_t)-1 / size)
    return NULL;
  void *p = domain_alloc(d, me, n * size, 16);
  if (p)
    memset(p, 0, n * size);
  return p;
}

/* malloc_usable_size of p in domain d (p checked). */
static size_t usable(const char *fn, uint32_t d, uint32_t me, void *p) {
  const char *why = NULL;
  size_t have = heap_usable(region_of(d), me, p, &why);
  if (!have)
    bad_block(fn, p, d, d, why);
  return have;
}

static void *realloc_for(void *p, size_t size, const void *caller) {
  uint32_t me, d = serving_domain(caller, &me);
  if (stream_memory_holds(p))
    bad_block("realloc", p, d, -1, "a stream's memory, which libc never "
                                   "resizes");
  if (p)
    check_owner("realloc", p, d);
  if (!d)
    return __libc_realloc(p, size);
  if (!p)
    return domain_alloc(d, me, size, 16);
  if (size == 0) {
    free_for(p, caller);
    return NULL;
  }
  size_t have = usable("realloc", d, me, p);
  if (size <= have && size >= have / 2)
    return p;
  void *q = domain_alloc(d, me, size, 16);
  if (q) {
    memcpy(q, p, size < have ? size : have);
    free_for(p, caller);
  }
  return q;
}

EXPORT void *realloc(void *p, size_t size) {
  return realloc_for(p, size, __builtin_return_address(0));
}

EXPORT void *reallocarray(void *p, size_t n, size_t size) {
  const void *caller = __builtin_return_address(0);
  if (size && n > (size_t)-1 / size) {
    if (!serving_domain(caller, NULL))
      errno = ENOMEM;
    return NULL;
  }
  return realloc_for(p, n * size, caller);
}

static void *aligned(size_t align, size_t size, const void *caller) {
  uint32_t me, d = serving_domain(caller, &me);
  if (!d)
    return __libc_memalign(align, size);
  if (align > HEAP_MAX_ALIGN)
    return NULL;
  return domain_alloc(d, me, size, align < 16 ? 16 : align);
}

static int power_of_two(size_t a) { return a && !(a & (a - 1)); }

EXPORT int posix_memalign(void **out, size_t align, size_t size) {
  if (!power_of_two(align) || align % sizeof(void *))
    return EINVAL;
  void *p = aligned(align, size, __builtin_return_address(0));
  if (!p)
    return ENOMEM;
  *out = p;
  return 0;
}

EXPORT void *aligned_alloc(size_t align, size_t size) {
  if (!power_of_two(align))
    return NULL;
  return aligned(align, size, __builtin_return_address(0));
}

EXPORT void *memalign(size_t align, size_t size) {
  return aligned(power_of_two(align) ? align : 16, size,
                 __builtin_return_address(0));
}

EXPORT void *valloc(size_t size) {
  return aligned(4096, size, __builtin_return_address(0));
}

EXPORT void *pvalloc(size_t size) {
  return aligned(4096, (size + 4095) & ~(size_t)4095,
                 __builtin_return_address(0));
}

EXPORT size_t malloc_usable_size(void *p) {
  if (!p)
    return 0;
  uint32_t me, d = serving_domain(__builtin_return_address(0), &me);
  if (stream_memory_holds(p))
    bad_block("malloc_usable_size", p, d, -1, "a stream's memory");
  check_owner("malloc_usable_size", p, d);
  if (d)
    return usable("malloc_usable_size", d, me, p);
  typedef size_t (*usable_size_fn)(void *);
  return INTERPOSE_NEXT(usable_size_fn, "malloc_usable_size")(p);
}

EXPORT dom_t dipc_domain_named(const char *name) {
  if (dipc_current_domain() != 0)
    return -DIPC_EPERM;
  return domains_handle_named(name);
}
