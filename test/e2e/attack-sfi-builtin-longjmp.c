// __builtin_longjmp (llvm.eh.sjlj.longjmp) resumes the frame pointer, the
// address and the stack pointer its buffer holds, whatever they are: the
// pass used to check only that the 40-byte buffer was readable. `evil`
// forged one (found by an attack round): the address libc's own strcpy,
// the stack a fake one of evil's whose return address is evil's `landed`;
// strcpy(loot, secret) ran with rdi and rsi still holding the call's
// arguments. Under -fdipc-sfi it is a compile error now (longjmp resumes
// only a context this thread saved, loader/longjmp.c). Control: the same
// source built with -fdipc alone, under `none`, copies the secret.
// RUN: not %dipc-clang -fdipc -fdipc-sfi -O2 -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-clang -fdipc -O2 %s -o %t -ldl
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI: error: dipc: -fdipc-sfi cannot check 'jump': it calls __builtin_longjmp, which resumes whatever context its buffer holds
// STOLEN: landed after libc's strcpy: vault-secret-42
#define _GNU_SOURCE
#include "Inputs/vault.h"
#include <unistd.h>

static char *g_loot;
static uintptr_t fake_stack[64] __attribute__((aligned(16)));

__attribute__((noinline)) static void landed(void) {
  static const char pre[] = "landed after libc's strcpy: ";
  (void)!write(1, pre, sizeof pre - 1);
  (void)!write(1, g_loot, strlen(g_loot));
  (void)!write(1, "\n", 1);
  _exit(0);
}

__attribute__((noinline)) static void jump(char *dst, const volatile char *src,
                                           void **buf) {
  __asm__ volatile("" ::"D"(dst), "S"(src));
  __builtin_longjmp(buf, 1);
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)aux, (void)key;
  g_loot = loot;
  void *libc_strcpy = dlvsym(RTLD_DEFAULT, "strcpy", "GLIBC_2.2.5");
  static void *buf[5];
  fake_stack[32] = (uintptr_t)landed;
  buf[0] = (void *)&fake_stack[40];      /* rbp */
  buf[1] = libc_strcpy;                  /* resume address */
  buf[2] = (void *)&fake_stack[32];      /* rsp */
  printf("jumping to %p\n", libc_strcpy);
  fflush(stdout);
  jump(loot, secret, buf);
  return 0;
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "sjlj", NULL);
}
