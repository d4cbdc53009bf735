/* backend.c - the emulated machine's setup: enforcement backend (`mpk` or
 * `none`), the protection keys with fixed roles, the PKRU image table and
 * its read-only alias, the thread-state region, and the global lock. */
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <cpuid.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dipc/loaded-notes.h"
#include "dipc/note.h"
#include "dipc/sfi.h"
#include "internal.h"

struct dipc_machine dipc_machine;
uintptr_t dipc_threads_lo, dipc_threads_hi;
uintptr_t dipc_unsafe_lo;
uintptr_t dipc_shadow_lo;
uint32_t *dipc_pkru_rw_table, *dipc_valid_table;
uintptr_t *dipc_anycall_rw;

/* XCR0 bit 9: the OS saves PKRU, so WRPKRU works (gate.S checks the same).
 * DIPC_NO_PKU=1 makes the runtime act as on a CPU without it, so that a
 * PKU machine tests that path too. */
static int forced_no_pku(void) {
  const char *no_pku = getenv("DIPC_NO_PKU");
  DIPC_CHECK(!no_pku || !strcmp(no_pku, "0") || !strcmp(no_pku, "1"),
             "DIPC_NO_PKU=%s: expected 0 or 1", no_pku);
  return no_pku && !strcmp(no_pku, "1");
}

static int cpu_has_pkru(void) {
  if (forced_no_pku())
    return 0;
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !((c >> 27) & 1)) /* OSXSAVE */
    return 0;
  uint32_t lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (lo >> 9) & 1;
}

/* The bytes of each code range tagged so far (runtime memory), so that a
 * later re-key notices a replacement: anyone may unmap a domain's code
 * and map other bytes there, which the re-key would make executable under
 * the domain's key. Trusted, under the global lock or at init. */
static struct {
  uintptr_t lo, hi;
  uint64_t hash;
} *code_ranges;
static unsigned num_code_ranges;

static int same_code(uintptr_t lo, const uint8_t *bytes, size_t len) {
  uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
  for (size_t i = 0; i < len; ++i)
    h = (h ^ bytes[i]) * 0x100000001b3ull;
  if (!code_ranges)
    code_ranges = dipc_alloc_runtime(RT_MAX_RANGES * sizeof *code_ranges);
  for (unsigned i = 0; i < num_code_ranges; ++i)
    if (code_ranges[i].lo == lo && code_ranges[i].hi == lo + len)
      return code_ranges[i].hash == h;
  if (num_code_ranges < RT_MAX_RANGES)
    code_ranges[num_code_ranges++] = (typeof(*code_ranges)){lo, lo + len, h};
  return 1;
}

/* Under the seccomp filter (a program run by the loader), code pages (a
 * domain's, when the APL cache moves them between keys) are checked again
 * before they are executable under the new key: anyone may have made them
 * writable, without PROT_EXEC, or replaced them since. The check happens
 * in the window's scratch area, where no one can swap the mapping for
 * another; it goes back in one step. Runtime tests without the loader may
 * use writable code. */
static int tag_code(void *addr, size_t len, int prot, int key) {
  if (dipc_sys_cookie == NULL)
    return dipc_sys_pkey_mprotect(addr, len, prot, key);
  if ((prot & PROT_WRITE) || len > RT_SCRATCH_SIZE)
    return -1;
  const uintptr_t at = RT_SCRATCH_A;
  if (dipc_sys_move((uintptr_t)addr, len, at) != 0)
    return -1;
  struct dipc_code_hit hit;
  int ok =
      dipc_sys_pkey_mprotect((void *)at, len, PROT_READ, RT_PKEY_RUNTIME) == 0;
  if (ok && dipc_code_find((const void *)at, len, &hit)) {
    fprintf(stderr,
            "dipc: code at %p contains a %s instruction at %p since it was "
            "checked\n",
            addr, hit.insn, (char *)addr + hit.offset);
    ok = 0;
  }
  if (ok && !same_code((uintptr_t)addr, (const uint8_t *)at, len)) {
    fprintf(stderr, "dipc: the code of a domain at %p was replaced\n", addr);
    ok = 0;
  }
  ok = ok && dipc_sys_pkey_mprotect((void *)at, len, prot, key) == 0 &&
       dipc_sys_move(at, len, (uintptr_t)addr) == 0;
  DIPC_CHECK(dipc_sys_map_window(at, len, PROT_NONE) == 0,
             "cannot release the runtime's scratch area");
  return ok ? 0 : -1;
}

int dipc_tag_pages(void *addr, size_t len, int prot, int key) {
  if (dipc_machine.backend != DIPC_BACKEND_MPK)
    return dipc_sys_mprotect(addr, len, prot);
  if (prot & PROT_EXEC)
    return tag_code(addr, len, prot, key);
  return dipc_sys_pkey_mprotect(addr, len, prot, key);
}

int dipc_seal_runtime_code(void *addr, size_t len) {
  if (dipc_machine.backend != DIPC_BACKEND_MPK)
    return dipc_sys_mprotect(addr, len, PROT_READ | PROT_EXEC);
  return dipc_sys_pkey_mprotect(addr, len, PROT_READ | PROT_EXEC,
                                RT_PKEY_RUNTIME);
}

/* Runtime memory comes from the arena in the window, whose pages the
 * seccomp filter keeps other code from unmapping, remapping, advising or
 * re-protecting (seccomp.c); it is never given back. */
static uintptr_t arena_used;

void *dipc_alloc_runtime(size_t size) {
  size = (size + RT_PAGE - 1) & ~(RT_PAGE - 1);
  uintptr_t at = __atomic_fetch_add(&arena_used, size, __ATOMIC_RELAXED);
  DIPC_CHECK(at + size <= RT_ARENA_SIZE,
             "runtime memory exhausted (%zu more bytes)", size);
  void *p = (void *)(RT_ARENA_ADDR + at);
  DIPC_CHECK(dipc_tag_pages(p, size, PROT_READ | PROT_WRITE, RT_PKEY_RUNTIME) ==
                 0,
             "cannot tag runtime state with its key");
  return p;
}

/* Address space in the arena that stays inaccessible (PROT_NONE, key 0):
 * guard addresses whose every use must fault. */
void *dipc_reserve_runtime(size_t size) {
  size = (size + RT_PAGE - 1) & ~(RT_PAGE - 1);
  uintptr_t at = __atomic_fetch_add(&arena_used, size, __ATOMIC_RELAXED);
  DIPC_CHECK(at + size <= RT_ARENA_SIZE,
             "runtime memory exhausted (%zu more bytes)", size);
  return (void *)(RT_ARENA_ADDR + at);
}

/* The window below the tables (thread region, arena), reserved. */
static void reserve_window(void) {
  _Static_assert(
      RT_WINDOW_LO == RT_THREADS_ADDR &&
          RT_THREADS_ADDR + (uint64_t)RT_MAX_THREADS * RT_THREAD_STRIDE ==
              RT_THREADS_END &&
          RT_THREADS_END <= RT_ARENA_ADDR &&
          RT_ARENA_ADDR + RT_ARENA_SIZE <= RT_RO_TABLE_ADDR &&
          RT_RW_TABLE_ADDR + RT_MAX_DOMAINS * 4 + RT_PAGE + RT_ANYCALL_BYTES ==
              RT_WINDOW_HI,
      "layout.h: the runtime's window");
  size_t size = RT_RO_TABLE_ADDR - RT_WINDOW_LO;
  void *p = dipc_sys_mmap(
      (void *)RT_WINDOW_LO, size, PROT_NONE,
      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1);
  DIPC_CHECK(p == (void *)RT_WINDOW_LO,
             "cannot reserve the runtime's window at %#x-%#x", RT_WINDOW_LO,
             RT_WINDOW_HI);
}

void dipc_publish_image(uint32_t dom, uint32_t image) {
  dipc_machine.pkru_rw[dom] =
      dipc_machine.backend == DIPC_BACKEND_MPK ? image : 0;
}

/* Counts a unit with records (n[0]) and one marked instrumented (n[1],
 * dipc/sfi.h). */
static void count_unit(uint32_t type, const char *desc, size_t size,
                       void *p) {
  (void)desc, (void)size;
  unsigned *n = p;
  n[0] += type == DIPC_NOTE_TYPE_RECORDS || type == DIPC_NOTE_TYPE_RECORDS_SFI;
  n[1] += type == DIPC_NOTE_TYPE_RECORDS_SFI;
}

/* Counts the main program's units with records and those marked
 * instrumented, from its notes as loaded. */
static int count_units(struct dl_phdr_info *info, size_t size, void *p) {
  (void)size;
  dipc_each_loaded_note(info, DIPC_NOTE_NAME, count_unit, p);
  return 1; /* the first object is the program */
}

static int program_instrumented(void) {
  unsigned n[2] = {0, 0};
  dl_iterate_phdr(count_units, n);
  return n[0] > 0 && n[0] == n[1];
}

/* mpk needs keys 1 (runtime) and 2 (stacks) and as many others as the
 * kernel gives for domains; `none` and `sfi` pretend to have the same
 * keys. Without DIPC_BACKEND: sfi for a program compiled with -fdipc-sfi,
 * else mpk where the CPU has keys, else none, with a warning. Its checks
 * read the running domain and the rights in runtime memory, which
 * protection keys keep from every domain: such a program cannot run
 * under mpk. */
static int choose_backend(void) {
  const char *env = getenv("DIPC_BACKEND");
  DIPC_CHECK(!env || !strcmp(env, "mpk") || !strcmp(env, "none") ||
                 !strcmp(env, "sfi"),
             "DIPC_BACKEND=%s: expected mpk, sfi or none", env);
  int instrumented = program_instrumented();
  if (env && !strcmp(env, "sfi")) {
    if (!instrumented) {
      fprintf(stderr, "dipc: backend `sfi` enforces isolation through checks "
                      "compiled in with -fdipc -fdipc-sfi; this program has "
                      "units compiled without them (or no dIPC records): "
                      "refused\n");
      _exit(DIPC_EXIT_REFUSED);
    }
    return DIPC_BACKEND_SFI;
  }
  if (!env && instrumented)
    return DIPC_BACKEND_SFI;
  if (env && !strcmp(env, "mpk") && instrumented) {
    fprintf(stderr, "dipc: backend `mpk` cannot run a program compiled with "
                    "-fdipc-sfi: its checks read the runtime's state, which "
                    "protection keys keep from every domain; run it with "
                    "--backend=sfi, or build it without -fdipc-sfi for "
                    "mpk: refused\n");
    _exit(DIPC_EXIT_REFUSED);
  }
  int want_mpk = !env || !strcmp(env, "mpk");
  if (want_mpk && dipc_machine.cpu_pku) {
    /* The kernel's calls, not glibc's: the loader stands in for those. */
    int rt = (int)syscall(SYS_pkey_alloc, 0, 0),
        stack = (int)syscall(SYS_pkey_alloc, 0, 0);
    if (rt == RT_PKEY_RUNTIME && stack == RT_PKEY_STACK) {
      while (syscall(SYS_pkey_alloc, 0, 0) > 0)
        ; /* the rest are the domains' keys */
      return DIPC_BACKEND_MPK;
    }
    DIPC_CHECK(rt < 0,
               "protection keys %d/%d were handed out before libdipc "
               "initialised (it needs keys 1 and 2)",
               rt, stack);
  }
  DIPC_CHECK(!env || strcmp(env, "mpk"),
             "DIPC_BACKEND=mpk but this CPU/kernel has no protection keys%s",
             forced_no_pku() ? " (DIPC_NO_PKU=1 hides them)" : "");
  fprintf(stderr, "dipc: warning: backend `none`: domain isolation is NOT "
                  "enforced\n");
  return DIPC_BACKEND_NONE;
}

/* gate.S: the entry points the runtime vector hands to domain code. */
DIPC_HIDDEN extern const char dipc_vector_setjmp_arm[],
    dipc_vector_errno_gate[], dipc_vector_errno_fast[], dipc_vector_scrub_sse[],
    dipc_vector_scrub_avx[], dipc_vector_scrub_avx512[], dipc_vector_anycall[];

#ifndef HWCAP2_FSGSBASE
#define HWCAP2_FSGSBASE (1 << 1)
#endif

/* The kernel lets user code run RDFSBASE/RDGSBASE (CR4.FSGSBASE). */
static int os_has_fsgsbase(void) {
  return (getauxval(AT_HWCAP2) & HWCAP2_FSGSBASE) != 0;
}

/* The runtime vector's words, in the runtime's writable alias. */
static uintptr_t *vector_rw;
#define VECTOR_WORD(addr)                                                      \
  vector_rw[((addr) - DIPC_VECTOR_ADDR) / sizeof(void *)]
#define VECTOR_U32(addr)                                                       \
  (*(uint32_t *)((char *)vector_rw + ((addr) - DIPC_VECTOR_ADDR)))

void dipc_vector_set_default_writer(uint32_t dom, int writes) {
  _Static_assert(RT_VECTOR_DEFAULT_WRITERS + RT_MAX_DOMAINS <=
                     DIPC_VECTOR_ADDR + RT_PAGE,
                 "the byte table fits the vector page");
  ((uint8_t *)vector_rw)[RT_VECTOR_DEFAULT_WRITERS - DIPC_VECTOR_ADDR + dom] =
      (uint8_t)writes;
}

/* What gate.S's XSAVE_USER saves around runtime C code: the user vector
 * features XCR0 enables (never PKRU), in an area of the size CPUID leaf 0xd
 * gives for all of XCR0's features. And the stubs' scrub routine for the
 * vector registers this CPU has. */
static void xstate_init(void) {
  unsigned a, b, c, d;
  DIPC_CHECK(__get_cpuid(1, &a, &b, &c, &d) && ((c >> 27) & 1),
             "no XSAVE enabled by the OS (CPUID.1:ECX.OSXSAVE): the gates "
             "need it to keep domains' vector registers");
  uint32_t xcr0, xcr0_hi;
  __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(xcr0_hi) : "c"(0));
  __cpuid_count(0xd, 0, a, b, c, d);
  uint32_t size = (b + 63) & ~63u;
  DIPC_CHECK(size >= 512 + 64 && size <= RT_XSAVE_MAX,
             "XSAVE area of %u bytes (CPUID 0xd): expected 576..%u", b,
             RT_XSAVE_MAX);
  VECTOR_U32(RT_VECTOR_XSAVE_SIZE) = size;
  VECTOR_U32(RT_VECTOR_XSAVE_MASK) = xcr0 & RT_XSAVE_FEATURES;
  const char *scrub = (xcr0 & 0xe6) == 0xe6 ? dipc_vector_scrub_avx512
                      : (xcr0 & 0x6) == 0x6 ? dipc_vector_scrub_avx
                                            : dipc_vector_scrub_sse;
  VECTOR_WORD(DIPC_VECTOR_SCRUB) = (uintptr_t)scrub;
}

/* The PKRU image table and, in the page after it, the runtime vector
 * (dipc/abi.h), then the anycall table: one memfd mapped read-write under
 * the runtime key and read-only at RT_RO_TABLE_ADDR under the shared key. */
static void map_image_tables(void) {
  size_t table = RT_MAX_DOMAINS * sizeof(uint32_t);
  _Static_assert(RT_MAX_DOMAINS * sizeof(uint32_t) % RT_PAGE == 0,
                 "the runtime vector starts a page");
  size_t size = table + RT_PAGE + RT_ANYCALL_BYTES;
  int fd = memfd_create("dipc-pkru", MFD_CLOEXEC);
  DIPC_CHECK(fd >= 0 && ftruncate(fd, size) == 0, "memfd for PKRU images");
  void *rw = dipc_sys_mmap((void *)RT_RW_TABLE_ADDR, size,
                           PROT_READ | PROT_WRITE,
                           MAP_SHARED | MAP_FIXED_NOREPLACE, fd);
  void *ro = dipc_sys_mmap((void *)RT_RO_TABLE_ADDR, size, PROT_READ,
                           MAP_SHARED | MAP_FIXED_NOREPLACE, fd);
  DIPC_CHECK(rw == (void *)RT_RW_TABLE_ADDR && ro == (void *)RT_RO_TABLE_ADDR,
             "cannot map the PKRU image table at %#x", RT_RO_TABLE_ADDR);
  close(fd);
  DIPC_CHECK(
      dipc_tag_pages(rw, size, PROT_READ | PROT_WRITE, RT_PKEY_RUNTIME) == 0 &&
          dipc_tag_pages(ro, size, PROT_READ, RT_PKEY_STACK) == 0,
      "cannot tag the PKRU image tables");
  dipc_machine.pkru_rw = rw;
  dipc_machine.pkru_ro = ro;
  vector_rw = (uintptr_t *)((char *)rw + table);
  dipc_anycall_rw = (uintptr_t *)((char *)rw + table + RT_PAGE);
  VECTOR_WORD(DIPC_VECTOR_ANYCALL) = (uintptr_t)dipc_vector_anycall;
  *((uint8_t *)rw + (RT_VECTOR_NO_PKU - RT_RO_TABLE_ADDR)) =
      !dipc_machine.cpu_pku;
  VECTOR_WORD(DIPC_VECTOR_SETJMP_ARM) = (uintptr_t)dipc_vector_setjmp_arm;
  /* Reading dipc_errno: without a gate when RDGSBASE/RDFSBASE work (the
   * fast path needs the thread region's bounds, reserve_thread_region). */
  dipc_machine.fast_errno = os_has_fsgsbase();
  VECTOR_WORD(DIPC_VECTOR_ERRNO_LOCATION) =
      dipc_machine.fast_errno ? (uintptr_t)dipc_vector_errno_fast
                              : (uintptr_t)dipc_vector_errno_gate;
  dipc_machine.valid = dipc_alloc_runtime(RT_MAX_DOMAINS * sizeof(uint32_t));
  dipc_pkru_rw_table = dipc_machine.pkru_rw;
  dipc_valid_table = dipc_machine.valid;
}

static void reserve_thread_region(void) {
  dipc_threads_lo = RT_THREADS_ADDR; /* in the window */
  dipc_threads_hi =
      RT_THREADS_ADDR + (uintptr_t)RT_MAX_THREADS * RT_THREAD_STRIDE;
  VECTOR_WORD(DIPC_VECTOR_THREADS_LO) = dipc_threads_lo;
  VECTOR_WORD(DIPC_VECTOR_THREADS_HI) = dipc_threads_hi;
  /* Unsafe stacks: a slot's is mapped with the slot (thread.c). Compiled
   * code checks every unsafe stack pointer it loads against these bounds:
   * nothing but unsafe stacks lies between them. */
  size_t size = RT_UNSAFE_REGION_SIZE;
  void *p = dipc_sys_mmap((void *)RT_UNSAFE_REGION_ADDR, size, PROT_NONE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
                              MAP_FIXED_NOREPLACE,
                          -1);
  DIPC_CHECK(p == (void *)RT_UNSAFE_REGION_ADDR,
             "cannot reserve the unsafe-stack region");
  dipc_unsafe_lo = (uintptr_t)p;
  VECTOR_WORD(DIPC_VECTOR_UNSAFE_LO) = (uintptr_t)p;
  VECTOR_WORD(DIPC_VECTOR_UNSAFE_HI) = (uintptr_t)p + size;
  /* Shadow stacks: a slot's is mapped with the slot (thread.c). */
  p = dipc_sys_mmap((void *)RT_SHADOW_REGION_ADDR, RT_SHADOW_REGION_SIZE,
                    PROT_NONE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
                        MAP_FIXED_NOREPLACE,
                    -1);
  DIPC_CHECK(p == (void *)RT_SHADOW_REGION_ADDR,
             "cannot reserve the shadow-stack region");
  dipc_shadow_lo = (uintptr_t)p;
}

/* DIPC_SHARED_STACKS=1: proxies without a stack switch unless
 * stack_confidentiality asks for one, as before stacks were isolated. Only
 * with `none`, which enforces nothing anyway: benchmarks measure the
 * switch's cost with it. */
static int shared_stacks(void) {
  const char *env = getenv("DIPC_SHARED_STACKS");
  DIPC_CHECK(!env || !strcmp(env, "0") || !strcmp(env, "1"),
             "DIPC_SHARED_STACKS=%s: expected 0 or 1", env);
  int on = env && !strcmp(env, "1");
  DIPC_CHECK(!on || dipc_machine.backend == DIPC_BACKEND_NONE,
             "DIPC_SHARED_STACKS=1 needs the `none` backend: under `mpk` "
             "every call runs on a stack of the callee's domain");
  return on;
}

/* The machine before anything runs on it (init.c calls these in order,
 * with the other parts' init between them). */
void dipc_machine_init(void) {
  dipc_machine.cpu_pku = cpu_has_pkru();
  dipc_machine.backend = choose_backend();
  /* sfi changes no hardware state: the gates' no-PKU variants. */
  if (dipc_machine.backend == DIPC_BACKEND_SFI)
    dipc_machine.cpu_pku = 0;
  dipc_machine.shared_stacks = shared_stacks();
  reserve_window();
}

void dipc_machine_map_tables(void) {
  map_image_tables();
  xstate_init();
  reserve_thread_region();
}
