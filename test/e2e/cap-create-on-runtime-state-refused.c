// dipc_cap_create grants a capability only on memory the current domain's
// APL covers, which never includes the runtime's own state, page 0 or
// kernel addresses. `mallory` (read on the default domain) asks for read
// capabilities on its thread's runtime state, the runtime's permission
// table, libdipc's own data, the read-only PKRU image table, page 0 and a
// kernel address: each is refused (EPERM) and its register stays empty;
// a capability on the default domain's data it may read is granted, for
// read only. Capabilities are the runtime's book-keeping (no protection
// key is involved), so both backends give the same answers; the negative
// control is the runtime before the check, which treated all of these as
// default-domain memory and granted every read capability.
// RUN: %dipc-clang -fdipc -O2 -I%S/../rt/Inputs %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s
// CHECK: thread state: error 1, register empty
// CHECK-NEXT: permission table: error 1, register empty
// CHECK-NEXT: libdipc data: error 1, register empty
// CHECK-NEXT: read-only image table: error 1, register empty
// CHECK-NEXT: page 0: error 1, register empty
// CHECK-NEXT: kernel address: error 1, register empty
// CHECK-NEXT: default data, read: ok
// CHECK-NEXT: default data, write: error 1
#define _GNU_SOURCE
#include <dipc.h>
#include <dipc/rt.h>
#include <stdint.h>
#include <stdio.h>

#include "rt-symbol.h"

static long data[512] __attribute__((aligned(4096)));

/* A read capability on [p, p + 4096) in register 3; what is in it after. */
long mallory_cap(const void *p, int perm) __dom("mallory") __entry
    __perm("default", read) {
  dipc_cap_revoke(3);
  long r = dipc_cap_create(3, p, 4096, perm);
  struct dipc_cap c;
  dipc_cap_read(3, &c);
  return r < 0 ? r * 10 - (c.perm != DIPC_PERM_NIL) : r;
}

static void try(const char *what, const void *p) {
  long r = mallory_cap(p, DIPC_PERM_READ);
  if (r < 0)
    printf("%s: error %ld, register %s\n", what, -r / 10,
           -r % 10 ? "holds a capability" : "empty");
  else
    printf("%s: granted\n", what);
}

int main(void) {
  try("thread state", dipc_thread_state());
  try("permission table", *(void **)rt_symbol("apl"));
  try("libdipc data", rt_symbol("apl"));
  try("read-only image table", (void *)0x7ff00000);
  try("page 0", (void *)0);
  try("kernel address", (void *)0xffffffff81000000);
  printf("default data, read: %s\n",
         mallory_cap(data, DIPC_PERM_READ) == 0 ? "ok" : "refused");
  printf("default data, write: error %ld\n",
         -mallory_cap(data, DIPC_PERM_WRITE) / 10);
  return 0;
}
