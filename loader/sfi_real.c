/* sfi_real.c - finds libc's mem* and str* functions (sfi_real.h). */
#define _GNU_SOURCE
#include "sfi_real.h"
#include "interpose.h"

#include <dlfcn.h>
#include <stddef.h>

static int looking_up;

void *sfi_real_lookup(void **slot, const char *name) {
  if (__atomic_exchange_n(&looking_up, 1, __ATOMIC_ACQ_REL))
    return NULL;
  void *fn = interpose_next(name); /* exits if there is none */
  __atomic_store_n(slot, fn, __ATOMIC_RELEASE);
  __atomic_store_n(&looking_up, 0, __ATOMIC_RELEASE);
  return fn;
}
