// Hole 1, libc's WRPKRU: glibc's pkey_set ends in an unchecked
// `wrpkru; xor eax, eax; ret`, and protection keys do not restrict
// instruction fetch. A domain that calls pkey_set(key, 0) for another
// domain's key (`call`), or jumps straight to that WRPKRU with eax = 0
// (`jump`; its address comes from the libc file on disk, which the loader
// does not change), would get every right. Under mpk the loader's
// pkey_set refuses (EPERM) and the instruction is gone from the process
// (rewritten to a trap before any program code ran): the read that follows
// faults and main gets DIPC_EFAULT, nothing stolen. Negative control:
// `none`, where both steal the secret.
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t call 2>&1 | FileCheck %s --check-prefix=CALL
// RUN: %dipc-bin-dir/dipc-run %t jump 2>&1 | FileCheck %s --check-prefix=JUMP
// RUN: %dipc-bin-dir/dipc-run --backend=none %t call 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t jump 2>&1 | FileCheck %s --check-prefix=STOLEN
// CALL: pkey_set: -1 (Operation not permitted)
// CALL: attack returned 0, dipc_errno 14
// CALL-NEXT: nothing stolen
// JUMP: jumping to libc's wrpkru at 0x
// JUMP: attack returned 0, dipc_errno 14
// JUMP-NEXT: nothing stolen
// STOLEN: stole 'vault-secret-42'
#define _GNU_SOURCE
#include "Inputs/vault.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  if (strcmp(mode, "call") == 0) {
    int r = pkey_set(key, 0);
    printf("pkey_set: %d (%s)\n", r, r ? strerror(errno) : "ok");
  } else {
    printf("jumping to libc's wrpkru at %p\n", aux);
    fflush(stdout);
    __asm__ volatile("xor %%ecx, %%ecx\n\txor %%edx, %%edx\n\t"
                     "xor %%eax, %%eax\n\tcall *%0"
                     : "+r"(aux)
                     :
                     : "rax", "rcx", "rdx", "memory");
  }
  fflush(stdout);
  take(secret, loot);
  return 0;
}

struct find {
  uintptr_t addr;
  const char *file;
  uintptr_t offset; /* of addr in the file */
};

static int find_object(struct dl_phdr_info *info, size_t size, void *p) {
  (void)size;
  struct find *f = p;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && f->addr >= lo && f->addr < lo + ph->p_filesz) {
      f->file = info->dlpi_name;
      f->offset = f->addr - lo + ph->p_offset;
      return 1;
    }
  }
  return 0;
}

// The WRPKRU inside libc's pkey_set, found in the libc file.
static void *libc_wrpkru(void) {
  void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  struct find f = {(uintptr_t)dlsym(libc, "pkey_set")};
  unsigned char code[128];
  int fd;
  if (!dl_iterate_phdr(find_object, &f) || (fd = open(f.file, O_RDONLY)) < 0 ||
      pread(fd, code, sizeof code, f.offset) != sizeof code)
    return NULL;
  close(fd);
  for (size_t i = 0; i + 2 < sizeof code; ++i)
    if (code[i] == 0x0f && code[i + 1] == 0x01 && code[i + 2] == 0xef)
      return (void *)(f.addr + i);
  return NULL;
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "call", libc_wrpkru());
}
