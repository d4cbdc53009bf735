// The loader's report of a thread's last refused access
// (__dipc_sfi_fault_info, exported by libdipc) told any caller where that
// access went, whoever made it: vault, indexing a buffer of its caller's
// by a byte of its secret (a bug of vault's, but its own memory's
// business), faulted on evil's buffer, and evil then read the address
// and so the byte (attack round 29). The runtime now answers the loader
// only: evil learns nothing, and the loader's own report still names the
// address when a refused read ends the process (main's, last).
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t 2>&1 | FileCheck %s
// CHECK: vault's probe: dipc_errno 14
// CHECK-NEXT: evil learned: nothing
// CHECK-NEXT: main reads vault
// CHECK-NEXT: dipc: sfi fault: read of 1 bytes at 0x{{[0-9a-f]+}} (domain vault) denied to the running domain (default)
#include <dipc.h>
#include <dipc/rt.h>
#include <stdint.h>
#include <stdio.h>

static char secret __dom("vault") = 'K';

long vault_probe(volatile char *buf) __dom("vault") __entry {
  return buf[(unsigned char)secret * 64]; /* evil's buffer: refused */
}

static char evil_buf[64 * 256] __dom("evil");

long attack(int *err) __dom("evil") __entry __perm("default", write) {
  vault_probe(evil_buf);
  *err = dipc_errno;
  uintptr_t at = 0, expected;
  uint64_t size;
  int write;
  uint32_t running, tag, kind;
  if (!__dipc_sfi_fault_info(&at, &size, &write, &running, &tag, &kind,
                             &expected) ||
      at < (uintptr_t)evil_buf || at >= (uintptr_t)evil_buf + sizeof evil_buf)
    return 0;
  return (long)((at - (uintptr_t)evil_buf) / 64);
}

int main(void) {
  int err = 0;
  long byte = attack(&err);
  printf("vault's probe: dipc_errno %d\n", err);
  if (byte)
    printf("evil learned: '%c'\n", (char)byte);
  else
    printf("evil learned: nothing\n");
  printf("main reads vault\n");
  fflush(stdout);
  return *(volatile char *)&secret;
}
