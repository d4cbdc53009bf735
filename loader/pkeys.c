/* pkeys.c - glibc's protection-key functions, as a program sees them under
 * the mpk backend: the runtime owns every key and changes PKRU only in its
 * gates, so pkey_set fails with EPERM (glibc's own is rewritten to a trap,
 * trusted.c), pkey_alloc with ENOSPC (none left) and pkey_free and
 * pkey_mprotect with EPERM (the kernel refuses them too, seccomp), except
 * pkey_mprotect with key -1, which is mprotect. pkey_get reads PKRU, which
 * is harmless. Under sfi the same, and pkey_mprotect is refused whatever
 * the key (with key -1 it would bypass mprotect's sfi interceptor, and on
 * a CPU with keys it could make pages executable). With `none` they are
 * glibc's. */
#define _GNU_SOURCE
#include <dipc/rt.h>
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "interpose.h"

static int enforcing(void) { return strcmp(dipc_backend(), "none") != 0; }
static int sfi(void) { return strcmp(dipc_backend(), "sfi") == 0; }

#define REAL(name, type) INTERPOSE_NEXT(type, name)

__attribute__((visibility("default"))) int pkey_set(int key, unsigned rights) {
  if (!enforcing())
    return REAL("pkey_set", int (*)(int, unsigned))(key, rights);
  errno = EPERM;
  return -1;
}

__attribute__((visibility("default"))) int pkey_alloc(unsigned flags,
                                                      unsigned rights) {
  if (!enforcing())
    return REAL("pkey_alloc", int (*)(unsigned, unsigned))(flags, rights);
  errno = ENOSPC;
  return -1;
}

__attribute__((visibility("default"))) int pkey_free(int key) {
  if (!enforcing())
    return REAL("pkey_free", int (*)(int))(key);
  errno = EPERM;
  return -1;
}

__attribute__((visibility("default"))) int pkey_mprotect(void *addr, size_t len,
                                                         int prot, int key) {
  if (!enforcing())
    return REAL("pkey_mprotect", int (*)(void *, size_t, int, int))(addr, len,
                                                                    prot, key);
  /* Under sfi the call would come from here, unchecked: refused. */
  if (key == -1 && !sfi())
    return mprotect(addr, len, prot);
  errno = EPERM;
  return -1;
}
