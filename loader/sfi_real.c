/* sfi_real.c - finds libc's definitions for the interceptors
 * (sfi_real.h). */
#define _GNU_SOURCE
#include "interpose.h"
#include "sfi_real.h"

#include <dlfcn.h>
#include <stddef.h>

extern struct sfi_next __start_dipc_sfi_next[], __stop_dipc_sfi_next[];

static int looking_up;

void *sfi_next_lookup(struct sfi_next *n) {
  void *fn = interpose_next(n->name); /* exits if there is none */
  __atomic_store_n(&n->fn, fn, __ATOMIC_RELEASE);
  return fn;
}

void *sfi_real_lookup(struct sfi_next *n) {
  if (__atomic_exchange_n(&looking_up, 1, __ATOMIC_ACQ_REL))
    return NULL;
  void *fn = sfi_next_lookup(n);
  __atomic_store_n(&looking_up, 0, __ATOMIC_RELEASE);
  return fn;
}

/* A symbol this libc lacks stays unset: the interceptor's first call
 * stops the process with its name (interpose_next), not the start of
 * every program. */
void sfi_next_resolve_all(void) {
  __atomic_store_n(&looking_up, 1, __ATOMIC_RELEASE);
  for (struct sfi_next *n = __start_dipc_sfi_next; n < __stop_dipc_sfi_next;
       ++n)
    if (!n->fn)
      __atomic_store_n(&n->fn, dlsym(RTLD_NEXT, n->name), __ATOMIC_RELEASE);
  __atomic_store_n(&looking_up, 0, __ATOMIC_RELEASE);
}
