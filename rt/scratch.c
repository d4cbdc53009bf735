/* scratch.c - the loader's scratch area under `sfi`: per thread slot,
 * runtime memory (no domain writes it) where an interceptor keeps its copy
 * of what it checked and hands libc (an iovec array, a msghdr, a
 * sigevent), so that a second thread of the calling domain cannot change
 * it between the check and libc's reads (docs/runtime.md, "sfi: libc
 * interceptors").
 *
 * Copies are taken and given back last in, first out: an interceptor's,
 * then those of signal handlers nested in it. A copy whose interceptor
 * never returns is forgotten when a recovery leaves the code it was made
 * for (its KCS depth) or a longjmp resumes a context saved before it. */
#include "internal.h"

static int taken_for_loader(struct dipc_thread **st, const void *ret) {
  *st = dipc_current_thread();
  return dipc_machine.backend == DIPC_BACKEND_SFI && *st &&
         dipc_trusted_caller(ret);
}

static uint32_t kcs_depth(const struct dipc_thread *st) {
  return (uint32_t)(st->kcs_top - st->kcs_base);
}

static char *area(struct dipc_thread *st) {
  return (char *)st + RT_LOADER_SCRATCH_OFF;
}

static uint32_t used(const struct dipc_thread *st) {
  return st->n_scratch ? st->scratch[st->n_scratch - 1].end : 0;
}

void dipc_scratch_unwind(struct dipc_thread *st, uint32_t keep) {
  uint32_t depth = kcs_depth(st);
  if (keep < st->n_scratch)
    st->n_scratch = keep;
  while (st->n_scratch && st->scratch[st->n_scratch - 1].depth > depth)
    st->n_scratch--;
}

/* Room for n bytes (16-aligned) in this thread's area; NULL when the
 * caller is not the loader, the backend not `sfi`, or there is no room. */
DIPC_EXPORT void *__dipc_sfi_scratch_take(size_t n) {
  struct dipc_thread *st;
  if (!taken_for_loader(&st, __builtin_return_address(0)))
    return NULL;
  dipc_scratch_unwind(st, UINT32_MAX);
  uint32_t at = used(st);
  if (st->n_scratch == RT_SCRATCH_COPIES ||
      n > RT_LOADER_SCRATCH_SIZE - at)
    return NULL;
  uint32_t end = at + (((uint32_t)n + 15) & ~15u);
  /* Counted before it is filled in: a signal nested here takes its copy
   * after this one. */
  st->scratch[st->n_scratch] = (struct dipc_scratch_copy){
      .at = at, .end = end, .depth = kcs_depth(st)};
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  st->n_scratch++;
  return area(st) + at;
}

/* Gives p back, and any copy taken after it (left by a handler that
 * never returned to its interceptor). */
DIPC_EXPORT void __dipc_sfi_scratch_give(void *p) {
  struct dipc_thread *st;
  if (!p || !taken_for_loader(&st, __builtin_return_address(0)))
    return;
  for (uint32_t i = st->n_scratch; i-- > 0;)
    if (area(st) + st->scratch[i].at == (char *)p) {
      st->n_scratch = i;
      return;
    }
}
