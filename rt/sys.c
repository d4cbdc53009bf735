/* sys.c - the runtime's own system calls that change protection keys, the
 * gs base or executable memory. Under mpk the seccomp filter (seccomp.c)
 * lets them through only from dipc_sys_raw (sys.S) with the per-process
 * cookie, which sits in runtime-key memory; these wrappers are called in
 * trusted mode (or at init, before the filter), with every signal blocked
 * while the cookie is in a register. */
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <errno.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

/* Until the cookie exists (the filter does not either): NULL. */
DIPC_HIDDEN const uint64_t *dipc_sys_cookie;

DIPC_HIDDEN long dipc_sys_raw(long nr, long a0, long a1, long a2, long a3,
                              long a4);

long dipc_sys(long nr, long a0, long a1, long a2, long a3, long a4) {
  /* A signal taken between loading the cookie and clearing it would write
   * it into a frame on the key-0 alternate stack. */
  uint64_t all = ~0ull, old;
  DIPC_CHECK(syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, &old, 8) == 0,
             "cannot block signals");
  long r = dipc_sys_raw(nr, a0, a1, a2, a3, a4);
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &old, NULL, 8);
  if (r < 0 && r > -4096) {
    errno = (int)-r;
    return -1;
  }
  return r;
}

/* The runtime's own mappings, never through libc (whose symbols a
 * preloaded library or the program may interpose). The offset is 0: once
 * the cookie exists it takes the offset's register, which an anonymous
 * mapping ignores, so file mappings are for init only. */
void *dipc_sys_mmap(void *addr, size_t len, int prot, int flags, int fd) {
  DIPC_CHECK(fd < 0 || !dipc_sys_cookie,
             "a file mapping of the runtime's after init");
  long r = dipc_sys(SYS_mmap, (long)addr, (long)len, prot, flags, fd);
  return r == -1 ? MAP_FAILED : (void *)r;
}

/* A mapping made for a domain (of its file, at its offset): the kernel's
 * call without the cookie, which the filter checks as the domain's own
 * would be, and not libc's mmap either. */
void *dipc_sys_mmap_for_domain(void *addr, size_t len, int prot, int flags,
                               int fd, int64_t offset) {
  long r = syscall(SYS_mmap, addr, len, prot, flags, fd, offset);
  return r == -1 ? MAP_FAILED : (void *)r;
}

int dipc_sys_mprotect(void *addr, size_t len, int prot) {
  return (int)dipc_sys(SYS_mprotect, (long)addr, (long)len, prot, 0, 0);
}

int dipc_sys_pkey_mprotect(void *addr, size_t len, int prot, int key) {
  return (int)dipc_sys(SYS_pkey_mprotect, (long)addr, (long)len, prot, key, 0);
}

/* The window's own pages: only the runtime maps, moves and unmaps them. */
int dipc_sys_map_window(uintptr_t at, size_t len, int prot) {
  long r =
      dipc_sys(SYS_mmap, (long)at, (long)len, prot,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1);
  return r == (long)at ? 0 : -1;
}

int dipc_sys_move(uintptr_t from, size_t len, uintptr_t to) {
  long r = dipc_sys(SYS_mremap, (long)from, (long)len, (long)len,
                    MREMAP_MAYMOVE | MREMAP_FIXED, (long)to);
  return r == (long)to ? 0 : -1;
}

int dipc_sys_set_gs(const void *base) {
  return (int)dipc_sys(SYS_arch_prctl, ARCH_SET_GS, (long)base, 0, 0, 0);
}
