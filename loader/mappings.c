/* mappings.c - code created at run time (JITs, hand-loaded code) gets the
 * same check as loaded objects: bytes are scanned while still
 * non-executable and refused if they could write PKRU. Memory that is
 * writable and executable at once could change after the check, so it is
 * refused outright. The dynamic linker maps objects with its own internal
 * calls; those are checked on dlopen instead (loader.c). */
#define _GNU_SOURCE
#include "mappings.h"
#include "scan.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>

typedef void *(*mmap_fn)(void *, size_t, int, int, int, off_t);
typedef int (*mprotect_fn)(void *, size_t, int);

static int enforcing;

void mappings_enforce(void) { enforcing = 1; }

static mmap_fn real_mmap(void) {
  static mmap_fn real;
  if (!real)
    real = (mmap_fn)dlsym(RTLD_NEXT, "mmap");
  return real;
}

static mprotect_fn real_mprotect(void) {
  static mprotect_fn real;
  if (!real)
    real = (mprotect_fn)dlsym(RTLD_NEXT, "mprotect");
  return real;
}

static int refuse_writable_code(void *addr, size_t len) {
  fprintf(stderr,
          "dipc-loader: refusing writable and executable memory at %p (%zu "
          "bytes): its code could be changed after it was checked\n",
          addr, len);
  errno = EACCES;
  return -1;
}

/* Checks [addr, addr+len), readable now, before it becomes executable. */
static int check_code(const void *addr, size_t len) {
  struct pkru_write hit;
  if (!scan_pkru_writes(addr, len, &hit))
    return 0;
  fprintf(stderr,
          "dipc-loader: refusing to make %p executable: it contains a %s "
          "instruction at %p, which could switch protection keys outside "
          "dIPC's gates\n",
          addr, hit.insn, (const char *)addr + hit.offset);
  errno = EACCES;
  return -1;
}

__attribute__((visibility("default"))) int mprotect(void *addr, size_t len,
                                                    int prot) {
  if (!enforcing || !(prot & PROT_EXEC))
    return real_mprotect()(addr, len, prot);
  if (prot & PROT_WRITE)
    return refuse_writable_code(addr, len);
  /* Read-only while checked: nobody can change it between check and use. */
  if (real_mprotect()(addr, len, PROT_READ) != 0)
    return -1;
  if (check_code(addr, len) != 0)
    return -1;
  return real_mprotect()(addr, len, prot);
}

__attribute__((visibility("default"))) void *
mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset) {
  if (!enforcing || !(prot & PROT_EXEC))
    return real_mmap()(addr, len, prot, flags, fd, offset);
  if (prot & PROT_WRITE) {
    refuse_writable_code(addr, len);
    return MAP_FAILED;
  }
  void *p = real_mmap()(addr, len, PROT_READ, flags, fd, offset);
  if (p == MAP_FAILED)
    return p;
  if (check_code(p, len) != 0 || real_mprotect()(p, len, prot) != 0) {
    int err = errno;
    munmap(p, len);
    errno = err;
    return MAP_FAILED;
  }
  return p;
}
