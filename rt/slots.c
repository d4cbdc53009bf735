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
