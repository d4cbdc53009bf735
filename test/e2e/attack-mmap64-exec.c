// Hole 3, mmap64: with -D_FILE_OFFSET_BITS=64 a program's mmap is glibc's
// mmap64, which symbol interposition of mmap never saw. Domain `evil`
// writes a WRPKRU gadget into a memfd and maps it executable with mmap64,
// then runs it to open every key. Under mpk the kernel's seccomp filter
// hands the request to the runtime, which scans the bytes and refuses:
// mmap64 fails with EACCES, the read that follows faults, main gets
// DIPC_EFAULT. Control: `none`, where the gadget runs and the secret leaks.
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 -D_FILE_OFFSET_BITS=64 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=STOLEN
// MPK: dipc: refusing /memfd:gadget{{.*}}: it contains a wrpkru instruction
// MPK: mmap64: Permission denied
// MPK: attack returned 0, dipc_errno 14
// MPK-NEXT: nothing stolen
// STOLEN: mmap64: mapped
// STOLEN: stole 'vault-secret-42'
#define _GNU_SOURCE
#include "Inputs/vault.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)aux, (void)key;
  // xor ecx, ecx; xor edx, edx; xor eax, eax; wrpkru; ret - built at run
  // time so that the test's own code holds no WRPKRU.
  unsigned char gadget[] = {0x31, 0xc9, 0x31, 0xd2, 0x31,
                            0xc0, 0x0f, 0x01, 0xee, 0xc3};
  volatile unsigned char one = 1; // not folded into an immediate
  gadget[8] |= one;
  int fd = memfd_create("gadget", 0);
  if (fd < 0 || write(fd, gadget, sizeof gadget) != sizeof gadget)
    return -1;
  void *code = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
  if (code == MAP_FAILED) {
    printf("mmap64: %s\n", strerror(errno));
  } else {
    printf("mmap64: mapped\n");
    fflush(stdout);
    ((void (*)(void))code)();
  }
  fflush(stdout);
  take(secret, loot);
  return 0;
}

int main(void) { return run_attack("mmap64", NULL); }
