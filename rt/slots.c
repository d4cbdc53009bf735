/* slots.c - the thread table: which slots of the thread region hold a
 * live thread's state (thread.c creates and releases them). Below the
 * domains, which ask it which threads run with a key and re-key the
 * callee stacks of a domain's threads. */
#include <sys/mman.h>

#include "internal.h"

uint8_t dipc_slot_state[RT_MAX_THREADS];
unsigned dipc_max_threads = RT_MAX_THREADS;

struct dipc_thread *dipc_thread_slot(unsigned i) {
  return (struct dipc_thread *)(dipc_threads_lo +
                                (uintptr_t)i * RT_THREAD_STRIDE);
}

const struct dipc_thread *dipc_thread_live(unsigned i) {
  return dipc_slot_state[i] == SLOT_LIVE ? dipc_thread_slot(i) : NULL;
}

void dipc_thread_rekey_dstacks(uint32_t dom, int key) {
  for (unsigned i = 0; i < dipc_max_threads; i++) {
    if (dipc_slot_state[i] != SLOT_LIVE)
      continue;
    struct dipc_dstack *ds = &dipc_thread_slot(i)->dstacks[dom];
    if (ds->hi)
      DIPC_CHECK(dipc_tag_pages((void *)ds->lo, ds->hi - ds->lo,
                                PROT_READ | PROT_WRITE, key) == 0,
                 "cannot re-key a callee stack of domain %u", dom);
  }
}

int dipc_threads_using_key(int key) {
  for (unsigned i = 0; i < dipc_max_threads; i++) {
    if (dipc_slot_state[i] != SLOT_LIVE)
      continue;
    uint32_t image =
        __atomic_load_n(&dipc_thread_slot(i)->cur_pkru, __ATOMIC_SEQ_CST);
    if (!((image >> (2 * key)) & 1))
      return 1;
  }
  return 0;
}

static struct dipc_thread *matching_tcb(struct dipc_thread *st,
                                        uintptr_t fs) {
  return st->fsbase == fs || (st->lent_fs && st->lent_fs == fs) ? st : NULL;
}

struct dipc_thread *dipc_current_thread(void) {
  uintptr_t gs, fs;
  if (!dipc_machine.fast_errno) { /* no RDGSBASE: through gs and fs */
    __asm__ volatile("mov %%gs:0, %0" : "=r"(gs));
    if (gs < dipc_threads_lo || gs >= dipc_threads_hi)
      return NULL;
    __asm__ volatile("mov %%fs:0, %0" : "=r"(fs));
    return matching_tcb((struct dipc_thread *)gs, fs);
  }
  __asm__ volatile("rdgsbase %0" : "=r"(gs));
  if (gs < dipc_threads_lo || gs >= dipc_threads_hi ||
      (gs - dipc_threads_lo) % RT_THREAD_STRIDE != 0)
    return NULL;
  unsigned i = (unsigned)((gs - dipc_threads_lo) / RT_THREAD_STRIDE);
  if (i >= dipc_max_threads || dipc_slot_state[i] != SLOT_LIVE)
    return NULL;
  __asm__ volatile("rdfsbase %0" : "=r"(fs));
  return matching_tcb((struct dipc_thread *)gs, fs);
}
