// memfd_create takes a name, which the kernel copies and shows as the
// target of the file's /proc/self/fd link. Domain `evil` names a memfd
// after vault's secret and reads the link back. Under sfi (-fdipc-sfi)
// the loader's interceptor checks the name as it checks a path: evil's
// read of vault's memory faults and main gets DIPC_EFAULT, nothing stolen.
// Control: `none`, where the link gives the secret away.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI-NOT: stole
// SFI: attack returned 0, dipc_errno 14
// SFI-NEXT: nothing stolen
// STOLEN: stole 'vault-secret-42'
#define _GNU_SOURCE
#include "Inputs/vault.h"

#include <unistd.h>

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)aux, (void)key;
  int fd = memfd_create((const char *)secret, 0);
  if (fd < 0)
    return -1;
  char path[64], link[128];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(path, link, sizeof link - 1);
  if (n < 0)
    return -1;
  link[n] = 0;
  // "/memfd:NAME (deleted)"
  const char *name = strchr(link, ':');
  for (int i = 0; name && i < 31 && name[i + 1] && name[i + 1] != ' '; ++i)
    loot[i] = name[i + 1];
  return 0;
}

int main(void) { return run_attack("memfd", NULL); }
