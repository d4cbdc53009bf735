// Hole 3, a raw system call: domain `evil` writes a WRPKRU gadget into
// writable memory and makes it executable with its own `syscall`
// instruction (SYS_mprotect), which no symbol interposition sees, then
// runs it to open every key. Under mpk the kernel's seccomp filter hands
// the request to the runtime, which scans the bytes and refuses it with
// EACCES; the read that follows faults and main gets DIPC_EFAULT. Control:
// `none`, where the gadget runs and the secret leaks.
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=STOLEN
// MPK: dipc: refusing to make {{.*}} executable: it contains a wrpkru instruction
// MPK: mprotect: -13
// MPK: attack returned 0, dipc_errno 14
// MPK-NEXT: nothing stolen
// STOLEN: mprotect: 0
// STOLEN: stole 'vault-secret-42'
#define _GNU_SOURCE
#include "Inputs/vault.h"

#include <sys/mman.h>
#include <sys/syscall.h>

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)aux, (void)key;
  unsigned char *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  // xor ecx, ecx; xor edx, edx; xor eax, eax; wrpkru; ret
  const unsigned char gadget[] = {0x31, 0xc9, 0x31, 0xd2, 0x31,
                                  0xc0, 0x0f, 0x01, 0xee, 0xc3};
  memcpy(code, gadget, sizeof gadget);
  volatile unsigned char one = 1; // not folded into an immediate
  code[8] |= one;
  long r;
  __asm__ volatile("syscall"
                   : "=a"(r)
                   : "a"(SYS_mprotect), "D"(code), "S"(4096),
                     "d"(PROT_READ | PROT_EXEC)
                   : "rcx", "r11", "memory");
  printf("mprotect: %ld\n", r);
  fflush(stdout);
  if (r == 0)
    ((void (*)(void))code)();
  take(secret, loot);
  return 0;
}

int main(void) { return run_attack("raw mprotect", NULL); }
