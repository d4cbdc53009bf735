// select and pselect read and write each descriptor set for n bits, not
// FD_SETSIZE's 1024: domain `evil` passes n = 2048 and a read set whose
// first 128 bytes end its writable memory (the default domain's data, the
// page before the vault's) and whose other 128 the kernel (its descriptor
// table grown past 2048 first: a raised soft limit, dup2) would take from
// the vault's page: it reads the vault's bytes as descriptors (EBADF says
// whether any bit of them is set, an oracle on the secret) and writes the
// ready set back over them. Under `sfi` the interceptors check the sets
// for n bits: the call is refused (DIPC_EFAULT to main). A 256-byte set of
// its own with the same n is allowed (`own`). Control: under `none` the
// kernel reads the vault's bytes (EBADF).
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi select 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi pselect 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi own 2>&1 | FileCheck %s --check-prefix=OWN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t select 2>&1 | FileCheck %s --check-prefix=READ
// RUN: %dipc-bin-dir/dipc-run --backend=none %t pselect 2>&1 | FileCheck %s --check-prefix=READ
// SFI-NOT: select:
// SFI: attack returned 0, dipc_errno 14
// OWN: select: 0
// OWN: attack returned 1, dipc_errno 0
// READ: select: -1 (Bad file descriptor)
#include "Inputs/vault.h"

#include <errno.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <unistd.h>

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key, (void)loot;
  static uint64_t own[32]; /* 2048 bits, evil's */
  char *page = (char *)((uintptr_t)secret & ~(uintptr_t)4095);
  fd_set *set = strcmp(mode, "own") == 0 ? (fd_set *)own
                                         : (fd_set *)(page - 128);
  /* the kernel reads no more bits than its descriptor table has */
  struct rlimit lim;
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < 4096 &&
      lim.rlim_max >= 4096) {
    lim.rlim_cur = 4096;
    setrlimit(RLIMIT_NOFILE, &lim);
  }
  int high = dup2(0, 4000);
  char saved[128];
  memcpy(saved, page - 128, sizeof saved); /* the default domain's data */
  memset(page - 128, 0, 128);
  struct timeval tv = {0, 0};
  struct timespec ts = {0, 0};
  int r = strcmp(mode, "pselect") == 0
              ? pselect(2048, set, NULL, NULL, &ts, NULL)
              : select(2048, set, NULL, NULL, &tv);
  int err = errno;
  memcpy(page - 128, saved, sizeof saved);
  if (high >= 0)
    close(high);
  printf("select: %d (%s)\n", r, r < 0 ? strerror(err) : "ok");
  return 1;
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "select", NULL);
}
