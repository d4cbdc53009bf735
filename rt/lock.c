/* lock.c - the runtime's global lock. Its holder is known by kernel thread
 * id, not by the TCB that fs points at (as pthread's mutexes know theirs):
 * a thread running another process's code for a cross-process call has
 * that process's TCB in fs. Knowing the holder lets a signal handler that
 * enters the runtime tell that the code it interrupted holds the lock,
 * instead of waiting for itself. */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <sys/syscall.h>

#include "internal.h"

/* The holder's tid, with LOCK_WAITERS set once a thread sleeps on it; 0
 * when free. One word, so that no instant shows the lock held by nobody
 * (a handler would then wait for its own thread). */
#define LOCK_WAITERS 0x40000000u /* above any tid (pid_max <= 2^22) */
static uint32_t lock_word;

/* gettid and futex straight to the kernel: no errno, which lives in the
 * TCB fs points at. Neither is one the seccomp filter confines. */
static long raw_syscall3(long nr, long a0, long a1, long a2) {
  long r;
  register long r10 __asm__("r10") = 0;
  __asm__ volatile("syscall"
                   : "=a"(r)
                   : "0"(nr), "D"(a0), "S"(a1), "d"(a2), "r"(r10)
                   : "rcx", "r11", "memory");
  return r;
}

static uint32_t self_tid(void) {
  /* Without RDGSBASE, a thread with no state yet has gs 0: the kernel's. */
  const struct dipc_thread *st =
      dipc_machine.fast_errno ? dipc_current_thread() : NULL;
  return st ? (uint32_t)st->tid : (uint32_t)raw_syscall3(SYS_gettid, 0, 0, 0);
}

static int held_by(uint32_t tid) {
  return (__atomic_load_n(&lock_word, __ATOMIC_RELAXED) & ~LOCK_WAITERS) ==
         tid;
}

static void acquire(uint32_t tid) {
  uint32_t free_word = 0;
  if (__atomic_compare_exchange_n(&lock_word, &free_word, tid, 0,
                                  __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
    return;
  for (;;) {
    uint32_t w = __atomic_load_n(&lock_word, __ATOMIC_RELAXED);
    if (w == 0) {
      /* Taken after sleeping: others may sleep still, so keep the bit. */
      if (__atomic_compare_exchange_n(&lock_word, &w, tid | LOCK_WAITERS, 0,
                                      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        return;
      continue;
    }
    if (!(w & LOCK_WAITERS) &&
        !__atomic_compare_exchange_n(&lock_word, &w, w | LOCK_WAITERS, 0,
                                     __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      continue;
    raw_syscall3(SYS_futex, (long)&lock_word, FUTEX_WAIT_PRIVATE,
                 (long)(w | LOCK_WAITERS)); /* r10 = 0: no time-out */
  }
}

void dipc_lock(void) {
  uint32_t tid = self_tid();
  DIPC_CHECK(!held_by(tid), "the runtime's lock taken again by its holder");
  acquire(tid);
}

void dipc_unlock(void) {
  if (__atomic_exchange_n(&lock_word, 0, __ATOMIC_RELEASE) & LOCK_WAITERS)
    raw_syscall3(SYS_futex, (long)&lock_word, FUTEX_WAKE_PRIVATE, 1);
}

int dipc_lock_unless_mine(void) {
  uint32_t tid = self_tid();
  if (held_by(tid))
    return -1;
  acquire(tid);
  return 0;
}

/* A fork child's copy was held by the forking thread, under its old tid. */
void dipc_lock_reinit(void) { __atomic_store_n(&lock_word, 0, __ATOMIC_RELAXED); }
