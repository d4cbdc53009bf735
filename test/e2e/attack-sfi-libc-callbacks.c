// libc calls the functions a domain hands it without a check: under `sfi`
// they must be functions the domain could call itself (dipc/sfi.h,
// "Control flow"; loader/sfi_callbacks.c). Domain `evil` opens a
// fopencookie stream whose write function is the C library's own memcpy
// (dlvsym finds it) and whose cookie is vault's secret, and writes to it:
// libc would call memcpy(secret, data, n). `bcopy`: the read function is
// libc's bcopy by name (a call by name reaches it: not intercepted), the
// cookie the secret, one byte a stream: libc would call bcopy(secret + i,
// buf, 1) and fread hand the byte over. Callbacks libc calls with
// arguments it computes from the domain's must be instrumented functions
// or a plain unit's, never a library's. Refused at fopencookie, main gets
// DIPC_EFAULT and the secret is intact. Control: under `none` the same
// binary overwrites (`cookie`) or steals (`bcopy`) the secret.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi cookie 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-WRITE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi cookie 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi bcopy 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi bcopy 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI: attack returned 0, dipc_errno 14
// SFI-NEXT: nothing stolen
// SFI-WRITE: vault's secret: intact
// NONE: attack returned 1, dipc_errno 0
// NONE: vault's secret: overwritten
// STOLEN: stole 'vault-secret-42'
#include "Inputs/vault.h"

int vault_intact(void) __dom("vault") __entry {
  return strcmp(vault_secret, "vault-secret-42") == 0;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  if (strcmp(mode, "bcopy") == 0) {
    cookie_io_functions_t io = {0};
    io.read = (cookie_read_function_t *)bcopy;
    for (int i = 0; i < 15; ++i) {
      FILE *f = fopencookie((void *)(secret + i), "r", io);
      if (!f)
        return -1;
      setvbuf(f, NULL, _IONBF, 0);
      if (fread(loot + i, 1, 1, f) != 1)
        return -2;
      fclose(f);
    }
    return 1;
  }
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

int main(int argc, char **argv) {
  run_attack(argc > 1 ? argv[1] : "cookie", NULL);
  printf("vault's secret: %s\n", vault_intact() ? "intact" : "overwritten");
  return 0;
}
