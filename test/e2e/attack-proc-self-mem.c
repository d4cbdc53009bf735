// Memory access by the kernel on the process's behalf ignores protection
// keys: /proc/self/mem (`mem`: open and pread; also when the process is
// not dumpable, for a process running as root) and process_vm_readv on
// the own pid (`vm`). Domain `evil` reads the vault that way. Under mpk
// the seccomp filter refuses process_vm_readv and process_vm_writev
// (EPERM) and a Landlock rule set denies opening the process's
// /proc/PID/mem (EACCES); the direct read that follows faults and main
// gets DIPC_EFAULT. Under sfi (-fdipc-sfi) the same Landlock rule denies
// the open, and the loader refuses process_vm_readv (EPERM, with a line);
// the direct read is refused by the check. Control: `none`, either binary.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t mem 2>&1 | FileCheck %s --check-prefixes=MPK,MPK-MEM %}
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t vm 2>&1 | FileCheck %s --check-prefixes=MPK,MPK-VM %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi mem 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-MEM
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi vm 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-VM
// RUN: %dipc-bin-dir/dipc-run --backend=none %t mem 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t vm 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi mem 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi vm 2>&1 | FileCheck %s --check-prefix=STOLEN
// MPK-MEM: open /proc/self/mem: Permission denied
// MPK-VM: process_vm_readv: Operation not permitted
// SFI-VM: dipc: sfi: process_vm_readv refused to the running domain (it would undo the isolation)
// SFI-VM-NEXT: process_vm_readv: Operation not permitted
// SFI-MEM: open /proc/self/mem: Permission denied
// MPK: attack returned 0, dipc_errno 14
// MPK-NEXT: nothing stolen
// SFI: attack returned 0, dipc_errno 14
// SFI-NEXT: nothing stolen
// STOLEN: stole 'vault-secret-42'
#define _GNU_SOURCE
#include "Inputs/vault.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  if (strcmp(mode, "mem") == 0) {
    int fd = open("/proc/self/mem", O_RDONLY);
    if (fd < 0)
      printf("open /proc/self/mem: %s\n", strerror(errno));
    else if (pread(fd, loot, 31, (off_t)(uintptr_t)secret) == 31)
      return 0;
  } else {
    struct iovec local = {loot, 31}, remote = {(void *)secret, 31};
    if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == 31)
      return 0;
    printf("process_vm_readv: %s\n", strerror(errno));
  }
  fflush(stdout);
  take(secret, loot);
  return 0;
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "mem", NULL);
}
