// Keys restrict loads and stores, not munmap or mmap: domain `evil` maps
// code of its own (NOPs, then a copy of the vault's secret to a buffer of
// main's) with MAP_FIXED over the page of the vault's entry. The next call
// into the vault enters evil's code with the vault's rights. Under mpk the
// runtime makes no memory executable where a domain's pages are: the mmap
// fails with EACCES (the vault's page is gone: its next call faults and
// main gets DIPC_EFAULT, nothing stolen), and a re-key of the page would
// see other bytes than those it was given. Under sfi (-fdipc-sfi) the
// loader refuses every executable mapping to instrumented code (EPERM):
// the vault's page stays as it was and its next call works. Control:
// `none`, for both builds.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=MPK %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=STOLEN
// MPK: dipc: refusing to make {{.*}} executable: it is a domain's memory
// MPK: mmap over the vault's code: Permission denied
// MPK: vault called again: dipc_errno 14
// MPK-NEXT: the replaced code stole ''
// SFI-DAG: dipc: sfi: executable mmap refused to the running domain
// SFI-DAG: mmap over the vault's code: Operation not permitted
// SFI: vault called again: dipc_errno 0
// SFI-NEXT: the replaced code stole ''
// STOLEN: mmap over the vault's code: ok
// STOLEN: the replaced code stole 'vault-secret-42'
#define _GNU_SOURCE
#include "Inputs/vault.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)key, (void)loot;
  uintptr_t *where = aux; // the vault's code [lo, hi), the buffer to fill
  size_t size = where[1] - where[0];
  unsigned char *code = malloc(size);
  memset(code, 0x90, size); // NOPs down to the payload, wherever it is entered
  unsigned char *p = code + size - 32;
  *p++ = 0x48, *p++ = 0xbe; // movabs rsi, secret
  memcpy(p, &secret, 8), p += 8;
  *p++ = 0x48, *p++ = 0xbf; // movabs rdi, buffer
  memcpy(p, &where[2], 8), p += 8;
  *p++ = 0xb9, *p++ = 4, *p++ = 0, *p++ = 0, *p++ = 0; // mov ecx, 4
  *p++ = 0xf3, *p++ = 0x48, *p++ = 0xa5;               // rep movsq
  *p++ = 0x31, *p++ = 0xc0;                            // xor eax, eax
  *p++ = 0xc3;                                         // ret
  int fd = memfd_create("payload", 0);
  if (fd < 0 || write(fd, code, size) != (ssize_t)size)
    return -1;
  void *r = mmap((void *)where[0], size, PROT_READ | PROT_EXEC,
                 MAP_PRIVATE | MAP_FIXED, fd, 0);
  printf("mmap over the vault's code: %s\n",
         r == MAP_FAILED ? strerror(errno) : "ok");
  fflush(stdout);
  return 0;
}

int main(void) {
  char buffer[32] = ""; // on the stack, which the vault may write
  // The vault's code: its section, page-aligned (docs/abi.md).
  extern char __start_dipc_text_vault[], __stop_dipc_text_vault[];
  uintptr_t where[3] = {(uintptr_t)__start_dipc_text_vault & -4096,
                        ((uintptr_t)__stop_dipc_text_vault + 4095) & -4096,
                        (uintptr_t)buffer};
  run_attack("replace code", where);
  vault_address();
  printf("vault called again: dipc_errno %d\n", dipc_errno);
  printf("the replaced code stole '%s'\n", buffer);
  return 0;
}
