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

#include <string.h>

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

/* Copies from st->n_scratch on go, their bytes cleared: a copy of one
 * domain's data must not be there for another's call to read (a
 * misjudged extent would let libc read past a copy). */
static void release(struct dipc_thread *st, uint32_t n) {
  if (n >= st->n_scratch)
    return;
  uint32_t from = st->scratch[n].at, to = used(st);
  st->n_scratch = n;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  memset(area(st) + from, 0, to - from);
}

void dipc_scratch_unwind(struct dipc_thread *st, uint32_t keep) {
  uint32_t depth = kcs_depth(st), n = keep < st->n_scratch ? keep
                                                          : st->n_scratch;
  while (n && st->scratch[n - 1].depth > depth)
    n--;
  release(st, n);
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
  uint32_t i = st->n_scratch, end = at + (((uint32_t)n + 15) & ~15u);
  struct dipc_scratch_copy c = {.at = at, .end = end, .depth = kcs_depth(st)};
  /* A signal's handler may take and give a copy at any point here (its
   * net effect: none, but the entry past the count): the entry is written
   * before it is counted, and again after, so that what a handler left in
   * it between the two is undone before the copy is used. */
  st->scratch[i] = c;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  st->n_scratch = i + 1;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  st->scratch[i] = c;
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
      release(st, i);
      return;
    }
}
