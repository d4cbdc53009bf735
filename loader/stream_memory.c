/* stream_memory.c - runtime memory for the streams libc makes for
 * instrumented code under `sfi`. A FILE holds what libc trusts: its
 * buffer pointers, its vtable, a cookie stream's cookie and functions.
 * Made in the domain's heap (libc's malloc is the loader's) a second
 * thread of the domain could rewrite them between the interceptor's check
 * and libc's use (an attack round widened a pipe stream's write area over
 * vault's secret within a few hundred tries). So while an interceptor
 * opens or closes such a stream, libc's own allocations for that thread
 * come from slots in the loader's image (runtime memory: no domain reads
 * or writes it), and the domain gets a decoy instead (sfi_streams.c).
 *
 * A window is a thread's, named by its fs base, which no domain code can
 * change (no lock is held across libc's call: a fault recovered past it
 * leaves at most that thread's own window open, closed at its next one);
 * only calls from libc's code take or free slots, and domain code that
 * libc calls back inside a window (cookie functions, signal handlers)
 * runs with it suspended. Slots are taken next-fit, so a freed one is
 * reused late. */
#define _GNU_SOURCE
#include "stream_memory.h"
#include "heap.h"
#include "../rt/say.h"

#include <dlfcn.h>
#include <gnu/libc-version.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/auxv.h>

#ifndef HWCAP2_FSGSBASE
#define HWCAP2_FSGSBASE (1 << 1)
#endif

/* glibc 2.36's largest: fopen's locked_FILE, 472 bytes. */
#define SLOT_SIZE 512
#define SLOTS 2048

static _Alignas(64) unsigned char slots[SLOTS][SLOT_SIZE];
static unsigned char used[SLOTS];
static unsigned next_slot;
#define HOLDERS 64
static uintptr_t holders[HOLDERS]; /* fs bases of threads in a window */
static int windows;               /* holders in use: 0 on the fast path */
static int slots_lock;            /* used[] and next_slot */
static uintptr_t libc_lo, libc_hi; /* libc's code */
static uintptr_t ldso_lo, ldso_hi; /* the dynamic linker's */
static uintptr_t self_lo, self_hi; /* the loader's */

static uintptr_t fs_base(void) {
  uintptr_t fs;
  __asm__ volatile("rdfsbase %0" : "=r"(fs));
  return fs;
}

/* The code segment of the object holding r[0]: r[0], r[1] = its bounds. */
static int find_code(struct dl_phdr_info *info, size_t size, void *p) {
  (void)size;
  uintptr_t *r = p, at = r[0];
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && at >= lo &&
        at < lo + ph->p_memsz) {
      r[0] = lo;
      r[1] = lo + ph->p_memsz;
      return 1;
    }
  }
  return 0;
}

/* A forked child has one thread, not in a window (fork is no call of
 * libc's inside one): the parent's other threads' windows go, lest a
 * thread of the child with a dead one's TCB address find itself in one. */
static void forget_windows(void) {
  for (unsigned i = 0; i < HOLDERS; i++)
    holders[i] = 0;
  windows = 0;
  slots_lock = 0;
}

void stream_memory_init(void) {
  if (!(getauxval(AT_HWCAP2) & HWCAP2_FSGSBASE))
    return; /* no window: streams stay where libc puts them */
  uintptr_t r[2] = {(uintptr_t)gnu_get_libc_version, 0};
  if (!dl_iterate_phdr(find_code, r))
    return;
  void *ldso = dlsym(RTLD_DEFAULT, "_dl_exception_create");
  uintptr_t l[2] = {(uintptr_t)ldso, 0};
  if (ldso && dl_iterate_phdr(find_code, l))
    ldso_lo = l[0], ldso_hi = l[1];
  uintptr_t me[2] = {(uintptr_t)libc_state_serves, 0};
  if (dl_iterate_phdr(find_code, me))
    self_lo = me[0], self_hi = me[1];
  libc_lo = r[0];
  libc_hi = r[1];
  pthread_atfork(NULL, NULL, forget_windows);
}

/* This thread's entry in holders, claimed (fs: its fs base) or found. */
static uintptr_t *holder_entry(uintptr_t fs, int claim) {
  for (unsigned i = 0; i < HOLDERS; i++)
    if (__atomic_load_n(&holders[i], __ATOMIC_ACQUIRE) == fs)
      return &holders[i];
  while (claim) {
    for (unsigned i = 0; i < HOLDERS; i++) {
      uintptr_t none = 0;
      if (__atomic_compare_exchange_n(&holders[i], &none, fs, 0,
                                      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        __atomic_add_fetch(&windows, 1, __ATOMIC_ACQ_REL);
        return &holders[i];
      }
    }
    sched_yield(); /* 64 threads opening streams at once */
  }
  return NULL;
}

static void release(uintptr_t *h) {
  __atomic_store_n(h, 0, __ATOMIC_RELEASE);
  __atomic_sub_fetch(&windows, 1, __ATOMIC_ACQ_REL);
}

/* key's entry if this thread holds it (none while no window is open). */
static uintptr_t *held(uintptr_t key) {
  return __atomic_load_n(&windows, __ATOMIC_ACQUIRE) ? holder_entry(key, 0)
                                                      : NULL;
}

/* Leaves key's window if this thread is in it: 1 if it was. */
static int leave_key(uintptr_t key) {
  uintptr_t *h = held(key);
  if (h)
    release(h);
  return h != NULL;
}

static int in_window(void) { return held(fs_base()) != NULL; }

int stream_memory_enter(void) {
  if (!libc_hi)
    return 0;
  holder_entry(fs_base(), 1);
  return 1;
}

void stream_memory_leave(int entered) {
  if (entered)
    leave_key(fs_base());
}

/* The key of this thread's libc-state window: its fs base (a TCB
 * address, aligned) with bit 0 set. */
static uintptr_t state_key(void) { return fs_base() | 1; }

int libc_state_enter(void) {
  if (!libc_hi || !heap_serves_domain())
    return 0;
  holder_entry(state_key(), 1);
  return 1;
}

void libc_state_leave(int entered) {
  if (entered)
    leave_key(state_key());
}

int stream_memory_suspend(void) {
  if (!libc_hi)
    return 0;
  return leave_key(fs_base()) | leave_key(state_key()) << 1;
}

void stream_memory_resume(int suspended) {
  if (suspended & 1)
    holder_entry(fs_base(), 1);
  if (suspended & 2)
    holder_entry(state_key(), 1);
}

int stream_memory_holds(const void *p) {
  uintptr_t a = (uintptr_t)p, base = (uintptr_t)slots;
  return a >= base && a < base + sizeof slots;
}

/* A spin lock: held for a few loads and stores, never across a call. */
static void lock_slots(void) {
  while (__atomic_exchange_n(&slots_lock, 1, __ATOMIC_ACQUIRE))
    __builtin_ia32_pause();
}

static void unlock_slots(void) {
  __atomic_store_n(&slots_lock, 0, __ATOMIC_RELEASE);
}

static int from_libc(const void *caller) {
  uintptr_t a = (uintptr_t)caller;
  return a >= libc_lo && a < libc_hi;
}

/* The loader's own code counts as libc's: libc's functions tail-call
 * free (freelocale's), which then returns to the interceptor. */
int libc_state_serves(const void *caller) {
  uintptr_t a = (uintptr_t)caller;
  return (from_libc(caller) || (a >= ldso_lo && a < ldso_hi) ||
          (a >= self_lo && a < self_hi)) &&
         held(state_key()) != NULL;
}

void *stream_memory_take(size_t size, const void *caller) {
  if (!libc_hi || size > SLOT_SIZE || !from_libc(caller) || !in_window())
    return NULL;
  void *p = NULL;
  lock_slots();
  for (unsigned n = 0; n < SLOTS && !p; n++) {
    unsigned i = (next_slot + n) % SLOTS;
    if (!used[i]) {
      used[i] = 1;
      next_slot = (i + 1) % SLOTS;
      p = slots[i];
    }
  }
  unlock_slots();
  return p; /* NULL when full: the opener finds its stream outside */
}

__attribute__((noreturn)) static void bad_put(const void *p) {
  dipc_say("dipc: free(%p): a stream's memory, which only libc frees, "
           "when it closes the stream\n",
           p);
  abort();
}

int stream_memory_put(void *p, const void *caller) {
  if (!stream_memory_holds(p))
    return 0;
  uintptr_t off = (uintptr_t)p - (uintptr_t)slots;
  if (!from_libc(caller) || !in_window() || off % SLOT_SIZE != 0)
    bad_put(p);
  lock_slots();
  int was = used[off / SLOT_SIZE];
  used[off / SLOT_SIZE] = 0;
  unlock_slots();
  if (!was)
    bad_put(p);
  return 1;
}
