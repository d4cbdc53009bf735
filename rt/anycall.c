/* anycall.c - entry addresses that work from any domain (docs/abi.md §4).
 *
 * Every address of an entry E that -fdipc code takes is E's anycall stub,
 * in shared text: `lea r11, [rip + stub]; jmp [DIPC_VECTOR_ANYCALL]`. The
 * vector routine (gate.S) looks r11 up in the anycall table and jumps to
 * E's anycall proxy: a proxy every domain may call (holding an entry's
 * address is the capability to call it), whose callee crashing returns 0
 * to the pointer's call site (RT_RECOVERY_RETURN0). The table is read by
 * every domain, so it is under the shared key and read-only there; only
 * the runtime writes it, through its alias under the runtime key: a domain
 * that could write it could make another domain's pointer call run code of
 * its choosing. Entries are never replaced; they are removed (left as a
 * tombstone the lookup steps over) only when the object of their stub or
 * of their entry is unloaded (dipc_op_forget). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

static unsigned anycall_count; /* slots ever used: tombstones count */
/* The entry set of each slot's proxy; runtime key (dipc_anycall_forget). */
static uint32_t *anycall_set;
/* A removed stub: never a stub address, never 0 (which ends a lookup). */
#define TOMBSTONE UINTPTR_MAX

/* Must match gate.S's dipc_vector_anycall. */
static unsigned first_slot(uintptr_t stub) {
  return (unsigned)((stub * 0x9e3779b97f4a7c15ull) >> (64 - RT_ANYCALL_BITS));
}

/* Slot index of stub, or of the empty slot where it would go. */
static unsigned find_slot(uintptr_t stub) {
  unsigned i = first_slot(stub);
  while (dipc_anycall_rw[2 * i] && dipc_anycall_rw[2 * i] != stub)
    i = (i + 1) & (RT_ANYCALL_SLOTS - 1);
  return i;
}

/* The stub the compiler emits (llvm-passes/CallerStubs.cpp), optionally
 * after an endbr64: it jumps to the vector with its own address in r11. A
 * record naming anything else would bind an address that is no stub. */
static int is_stub(uintptr_t stub) {
  static const uint8_t endbr64[4] = {0xf3, 0x0f, 0x1e, 0xfa};
  static const uint8_t lea[3] = {0x4c, 0x8d, 0x1d}; /* lea r11, [rip+d32] */
  static const uint8_t jmp[7] = {0xff, 0x24, 0x25, /* jmp [abs32] */
                                 DIPC_VECTOR_ANYCALL & 0xff,
                                 (DIPC_VECTOR_ANYCALL >> 8) & 0xff,
                                 (DIPC_VECTOR_ANYCALL >> 16) & 0xff,
                                 (DIPC_VECTOR_ANYCALL >> 24) & 0xff};
  enum { MAX_LEN = 4 + 7 + 7 };
  int prot = dipc_mapping_prot(stub, stub + MAX_LEN);
  if (prot < 0 || (prot & (PROT_READ | PROT_EXEC)) != (PROT_READ | PROT_EXEC) ||
      (prot & PROT_WRITE))
    return 0;
  const uint8_t *p = (const uint8_t *)stub;
  if (!memcmp(p, endbr64, 4))
    p += 4;
  int32_t disp;
  memcpy(&disp, p + 3, 4);
  return !memcmp(p, lea, 3) && (uintptr_t)(p + 7) + (intptr_t)disp == stub &&
         !memcmp(p + 7, jmp, 7);
}

int dipc_anycall_registered(uintptr_t stub) {
  if (!dipc_anycall_rw || !stub || stub == TOMBSTONE)
    return 0;
  return dipc_anycall_rw[2 * find_slot(stub)] == stub;
}

long dipc_anycall_check_stub(uintptr_t stub) {
  /* Shared text of the default domain: a named domain's pages or the
   * runtime's never hold one. */
  if (!stub || dipc_domain_of(stub) != 0 || dipc_runtime_owned(stub, stub + 18) ||
      dipc_stack_owned(stub, stub + 18) || !is_stub(stub))
    return -DIPC_EINVAL;
  unsigned i = find_slot(stub);
  return dipc_anycall_rw[2 * i] ? -DIPC_EEXIST : 0;
}

long dipc_anycall_insert(uintptr_t stub, void *proxy, uint32_t set) {
  unsigned i = find_slot(stub);
  if (dipc_anycall_rw[2 * i])
    return -DIPC_EEXIST;
  /* A tombstone on the way is reused; a new slot keeps a lookup ending. */
  unsigned t = first_slot(stub);
  while (dipc_anycall_rw[2 * t] && dipc_anycall_rw[2 * t] != TOMBSTONE)
    t = (t + 1) & (RT_ANYCALL_SLOTS - 1);
  if (dipc_anycall_rw[2 * t] != TOMBSTONE) {
    if (anycall_count >= RT_ANYCALL_SLOTS / 2) /* a lookup always ends */
      return -DIPC_ENOSPC;
    anycall_count++;
  }
  i = t;
  if (!anycall_set)
    anycall_set = dipc_alloc_runtime(RT_ANYCALL_SLOTS * sizeof *anycall_set);
  anycall_set[i] = set;
  /* The proxy first: a lookup that finds the key finds its proxy. */
  __atomic_store_n(&dipc_anycall_rw[2 * i + 1], (uintptr_t)proxy,
                   __ATOMIC_RELEASE);
  __atomic_store_n(&dipc_anycall_rw[2 * i], stub, __ATOMIC_RELEASE);
  return 0;
}

unsigned dipc_anycall_forget(uintptr_t lo, uintptr_t hi, const uint8_t *dead) {
  unsigned n = 0;
  for (unsigned i = 0; anycall_set && i < RT_ANYCALL_SLOTS; i++) {
    uintptr_t stub = dipc_anycall_rw[2 * i];
    if (!stub || stub == TOMBSTONE ||
        !((stub >= lo && stub < hi) || dead[anycall_set[i]]))
      continue;
    /* The key first: a lookup that still finds it finds the old proxy,
     * whose entry fails cleanly (dipc_op_forget). */
    __atomic_store_n(&dipc_anycall_rw[2 * i], TOMBSTONE, __ATOMIC_RELEASE);
    n++;
  }
  return n;
}

/* OP_ANYCALL_MISS: a jump to the vector with an r11 that is no registered
 * stub (a pointer whose entry's object was never loaded, or forged). */
_Noreturn long dipc_anycall_miss(uintptr_t r11) {
  fflush(NULL);
  dipc_say("dipc: call through %#lx, which is not the address of a loaded "
           "entry (no anycall stub is registered there)\n",
           (unsigned long)r11);
  _exit(DIPC_EXIT_REFUSED);
}
