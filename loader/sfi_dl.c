/* sfi_dl.c - the dynamic linker's handles, which instrumented code passes
 * to dlsym, dlvsym and dlclose (loader.c's interceptor): each must be one
 * the dynamic linker made (a loaded object's link_map, or RTLD_DEFAULT and
 * RTLD_NEXT for the lookups). ld.so reads and writes through a handle as
 * a struct link_map: an attack round's dlclose of a forged one, pointed
 * into the rights matrix, decremented the word there and gave its domain
 * every right over vault's memory.
 *
 * dlsym and dlvsym take RTLD_NEXT from their caller's return address, so
 * their interceptors are asm stubs (setjmp.S) that check and then jump to
 * glibc's on the untouched frame; they cannot carry the functions' names
 * (the loader's own dlsym calls would reach them before glibc's is known),
 * so the alias table (sfi_alias.c) binds instrumented objects' slots
 * holding glibc's to them, and the runtime refuses glibc's as the target
 * of an indirect call. */
#define _GNU_SOURCE
#include "sfi_dl.h"
#include "sfi_intercept.h"
#include "stream_memory.h"

#include <dlfcn.h>
#include <link.h>

int sfi_dl_loaded_object(const void *h) {
  for (const struct link_map *l = _r_debug.r_map; l; l = l->l_next)
    if ((const void *)l == h)
      return 1;
  return 0;
}

static int lookup_handle(const void *h) {
  return h == RTLD_DEFAULT || h == RTLD_NEXT || sfi_dl_loaded_object(h);
}

static void *refused_lookup(void) {
  sfi_refuse("dlsym or dlvsym of a handle the dynamic linker did not make");
  return NULL;
}

/* glibc's lookup to jump to, or one returning NULL. */
static void *lookup_for(const void *handle, const void *ret, void *glibc) {
  if (sfi_code_checks(ret) && !lookup_handle(handle))
    return (void *)refused_lookup;
  return glibc;
}

/* The stubs' checks. */
void *sfi_dlsym_check(void *handle, const void *ret) {
  return lookup_for(handle, ret, (void *)dlsym);
}

void *sfi_dlvsym_check(void *handle, const void *ret) {
  return lookup_for(handle, ret, (void *)dlvsym);
}

/* __tls_get_addr(ti) returns the thread's block of module ti->module
 * plus ti->offset: an index pointed 8 bytes before another domain's
 * secret returned its first 8 bytes as the offset
 * (e2e/attack-sfi-tls-get-addr.c). From instrumented code the index must
 * be memory the running domain may read (its object's GOT entry).
 * General-dynamic call sites may leave the stack misaligned: realigned. */
struct sfi_tls_index {
  unsigned long module, offset;
};
void *__tls_get_addr(struct sfi_tls_index *ti);

SFI_EXPORT __attribute__((force_align_arg_pointer)) void *
__tls_get_addr(struct sfi_tls_index *ti) {
  if (SFI_CHECKED())
    SFI_READ(ti, sizeof *ti);
  /* the thread's vector of TLS blocks, and the blocks, are ld.so's */
  LIBC_STATE(void *, NEXT(__tls_get_addr)(ti));
}

/* dlerror formats the record a failed call left: its object name and
 * message, behind pointers in a block libc's malloc took from the running
 * domain's heap. A domain pointed the name at vault's secret and dlerror
 * copied the secret into its message (e2e/attack-sfi-dlerror.c): refused
 * to named domains (NULL, the reason on stderr). */
SFI_EXPORT char *dlerror(void) {
  if (SFI_CHECKED() && sfi_running_domain() != 0)
    return (sfi_refuse("dlerror"), NULL);
  return NEXT(dlerror)();
}

void __dipc_sfi_dlsym(void);  /* setjmp.S */
void __dipc_sfi_dlvsym(void); /* setjmp.S */

const struct sfi_renamed sfi_dl_renamed[SFI_DL_RENAMED] = {
    {(uintptr_t)dlsym, (uintptr_t)__dipc_sfi_dlsym},
    {(uintptr_t)dlvsym, (uintptr_t)__dipc_sfi_dlvsym},
};
