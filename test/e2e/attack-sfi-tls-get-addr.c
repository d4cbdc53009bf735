// __tls_get_addr(ti) returns the thread's block of module ti->module plus
// ti->offset. It was let through unchecked as taking a handle (its index
// is compiled code's GOT entry): an attack round's `evil` pointed the
// index 8 bytes before vault's secret (a zero word there: module 0), so
// that glibc took the secret's first 8 bytes as the offset, and
// subtracted the base another call with {0, 0} gave. Under `sfi` the
// loader checks the index like any read of the caller's
// (loader/sfi_dl.c): the call faults, main gets DIPC_EFAULT. Control:
// under `none` the same calls give the secret's first 8 bytes.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=NONE
// SFI-NOT: stole
// SFI: attack returned 0, dipc_errno 14
// SFI-NEXT: nothing stolen
// NONE: stole 'vault-se'
#include "Inputs/vault.h"

typedef struct {
  unsigned long module, offset;
} tls_index;
extern void *__tls_get_addr(tls_index *);

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)aux, (void)key;
  // vault's layout puts a zero word before the secret (nothing secret)
  tls_index calibrate = {0, 0};
  char *base = __tls_get_addr(&calibrate);
  char *got = __tls_get_addr((tls_index *)(secret - 8));
  unsigned long word = (unsigned long)(got - base);
  memcpy(loot, &word, 8);
  loot[8] = 0;
  return 0;
}

int main(void) { return run_attack("tls_get_addr", NULL); }
