// libc calls the functions a domain hands it without a check: under `sfi`
// they must be functions the domain could call itself (dipc/sfi.h,
// "Control flow"; loader/sfi_callbacks.c). Domain `evil` opens a
// fopencookie stream whose write function is the C library's own memcpy
// (dlvsym finds it) and whose cookie is vault's secret, and writes to it:
// libc would call memcpy(secret, data, n). Refused at fopencookie, main
// gets DIPC_EFAULT and the secret is intact. Control: under `none` the same
// binary overwrites the secret.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=NONE
// SFI: attack returned 0, dipc_errno 14
// SFI: vault's secret: intact
// NONE: attack returned 1, dipc_errno 0
// NONE: vault's secret: overwritten
#include "Inputs/vault.h"

int vault_intact(void) __dom("vault") __entry {
  return strcmp(vault_secret, "vault-secret-42") == 0;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)aux, (void)key, (void)loot;
  cookie_io_functions_t io = {0};
  io.write = (cookie_write_function_t *)dlvsym(RTLD_DEFAULT, "memcpy",
                                                "GLIBC_2.14");
  FILE *f = fopencookie((void *)secret, "w", io);
  if (!f)
    return -1;
  fputs("pwned", f);
  fflush(f);
  return 1;
}

int main(void) {
  run_attack("cookie", NULL);
  printf("vault's secret: %s\n", vault_intact() ? "intact" : "overwritten");
  return 0;
}
