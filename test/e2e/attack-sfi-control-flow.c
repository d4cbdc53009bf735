// Under `sfi` instrumented code may only transfer control where the
// checks stay in force (dipc/sfi.h, "Control flow"): it tries to leave
// them behind. `call`: it asks the dynamic linker for the C library's own
// memcpy (dlvsym finds the implementation the loader's interceptor
// replaces) and calls it through a pointer to copy vault's secret,
// unchecked; `call-old`: the same with memcpy's older version; `ret`: it
// overwrites its own return address to go elsewhere. Domain `evil` tries
// each through its entry: refused, and main gets DIPC_EFAULT. The default
// domain tries `call` and `ret` with no call to recover to: the process
// dies with the report. Control: the same binary under `none` steals the
// secret and follows the forged return address.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -fno-omit-frame-pointer %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi call 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi call-old 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi ret 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t.sfi main-call 2>&1 | FileCheck %s --check-prefix=MAIN-CALL
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t.sfi main-ret 2>&1 | FileCheck %s --check-prefix=MAIN-RET
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi call 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi call-old 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi ret 2>&1 | FileCheck %s --check-prefix=HIJACKED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi main-call 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi main-ret 2>&1 | FileCheck %s --check-prefix=HIJACKED
// SFI-NOT: stole
// SFI-NOT: hijacked
// SFI: attack returned 0, dipc_errno 14
// SFI-NEXT: nothing stolen
// MAIN-CALL-NOT: stole
// MAIN-CALL: dipc: sfi fault: indirect call to 0x{{[0-9a-f]+}} (domain {{.*}}) refused in the running domain (default): not a function start it may call
// MAIN-RET-NOT: hijacked
// MAIN-RET: dipc: sfi fault: return to 0x{{[0-9a-f]+}} refused in the running domain (default): the shadow stack holds 0x{{[0-9a-f]+}} for this frame
// STOLEN: stole 'vault-secret-42'
// HIJACKED: return hijacked
#include "Inputs/vault.h"

#include <unistd.h>

typedef void *(*copy_fn)(void *, const void *, size_t);

static void hijacked(void) {
  static const char msg[] = "return hijacked\n";
  (void)!write(STDOUT_FILENO, msg, sizeof msg - 1);
  _exit(0);
}

/* Its return address is the word above its frame pointer. */
__attribute__((noinline)) static void overwrite_return(void) {
  void *volatile *frame = __builtin_frame_address(0);
  frame[1] = (void *)hijacked;
}

/* memcpy as the C library implements it, for a copy no check sees. */
__attribute__((noinline)) static long copy_unchecked(const char *mode,
                                                     const volatile char *secret,
                                                     char *loot) {
  const char *version = strstr(mode, "old") ? "GLIBC_2.2.5" : "GLIBC_2.14";
  copy_fn copy = (copy_fn)dlvsym(RTLD_DEFAULT, "memcpy", version);
  if (!copy) {
    printf("no memcpy@%s\n", version);
    return -1;
  }
  copy(loot, (const void *)secret, 16);
  return 1;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  if (strcmp(mode, "ret") == 0) {
    overwrite_return();
    return 1;
  }
  return copy_unchecked(mode, secret, loot);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "call";
  if (strncmp(mode, "main-", 5) != 0)
    return run_attack(mode, NULL);
  /* The default domain's own attempt: vault's secret needs no grant to be
   * refused here, the transfer itself is. */
  char loot[32] = "";
  if (strcmp(mode, "main-ret") == 0)
    overwrite_return();
  else
    copy_unchecked(mode, vault_address(), loot);
  printf(loot[0] ? "stole '%s'\n" : "nothing stolen%s\n", loot);
  return 0;
}
