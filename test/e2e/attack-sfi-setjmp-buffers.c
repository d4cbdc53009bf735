// The setjmp family's buffers, from a domain with no grant (attack round
// 15). Mode `setjmp`: sneak's _setjmp into a buffer 16 bytes before
// vault's secret had glibc write its callee-saved registers ("PWNED!!!")
// over the secret: the loader now checks the buffer is the caller's to
// write (loader/longjmp.c, setjmp_record). Mode `longjmp`: a longjmp
// through a buffer over vault's secret was refused, but the refusal's
// fault report (any domain's to read, __dipc_sfi_fault_info) named the
// buffer's pc word demangled, and a zero buffer's gave the pointer guard:
// 8 bytes of the secret a try. The loader now checks the buffer readable
// first and the report names the buffer. Controls: under `none` the
// setjmp writes, and sneak's direct read (mode `direct`) steals.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t setjmp 2>&1 | FileCheck %s --check-prefix=SFI-SETJMP
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t longjmp 2>&1 | FileCheck %s --check-prefix=SFI-LONGJMP
// RUN: %dipc-bin-dir/dipc-run --backend=none %t setjmp 2>&1 | FileCheck %s --check-prefix=NONE-SETJMP
// RUN: %dipc-bin-dir/dipc-run --backend=none %t direct 2>&1 | FileCheck %s --check-prefix=NONE-DIRECT
// SFI-SETJMP: sneak returned 0, dipc_errno 14
// SFI-SETJMP: after: vault intact 'vault-secret-42.'
// SFI-LONGJMP: nothing stolen
// NONE-SETJMP: after: vault CHANGED 'PWNED!!!PWNED!!!'
// NONE-DIRECT: stole 'vault-secret-42'
#include "Inputs/vault.h"
#include <setjmp.h>

int vault_show(char *out) __dom("vault") __entry;
int vault_show(char *out) {
  for (int i = 0; i < 16; i++) {
    unsigned char c = (unsigned char)vault_secret[i];
    out[i] = c >= 32 && c < 127 ? (char)c : '.';
  }
  out[16] = 0;
  return strcmp(vault_secret, "vault-secret-42") == 0;
}

long sneak_setjmp(char *secret, long v) __dom("sneak") __entry;
long sneak_setjmp(char *secret, long v) {
  /* v live in every callee-saved register across the call */
  long a = v, b = v, c = v, d = v, e = v;
  __asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e));
  /* r12-r15's words of the buffer land on the secret */
  long r = _setjmp(*(jmp_buf *)(secret - 16));
  __asm__ volatile("" : : "r"(a), "r"(b), "r"(c), "r"(d), "r"(e));
  return r;
}

/* The jump is made in a second domain, so that its fault returns to sneak. */
long hop(void *buf) __dom("hop") __entry;
long hop(void *buf) { longjmp(*(jmp_buf *)buf, 1); }

static uintptr_t fault_addr(void) {
  uintptr_t addr = 0, expected = 0;
  uint64_t size;
  int write;
  uint32_t running, tag, kind;
  __dipc_sfi_fault_info(&addr, &size, &write, &running, &tag, &kind,
                        &expected);
  return addr;
}

long sneak_longjmp(const char *secret, char *loot, int direct)
    __dom("sneak") __entry;
long sneak_longjmp(const char *secret, char *loot, int direct) {
  if (direct) {
    for (int i = 0; i < 31 && (i == 0 || secret[i - 1]); i++)
      loot[i] = secret[i];
    return 0;
  }
  uintptr_t zeros[8] = {0};
  hop(zeros);
  uintptr_t guard = fault_addr(); /* ror(0, 0x11) ^ guard, as it was */
  for (int k = 0; k < 4; k++) {
    hop((void *)(secret + 8 * k - 56)); /* its pc word: secret[8k, 8k+8) */
    uintptr_t v = fault_addr() ^ guard;
    v = (v << 0x11) | (v >> (64 - 0x11));
    memcpy(loot + 8 * k, &v, 8);
  }
  loot[31] = 0;
  return 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "setjmp";
  char *s = (char *)vault_address();
  if (strcmp(mode, "setjmp") == 0) {
    char view[17];
    long v;
    memcpy(&v, "PWNED!!!", 8);
    printf("before: vault %s '%s'\n", vault_show(view) ? "intact" : "CHANGED",
           view);
    long r = sneak_setjmp(s, v);
    printf("sneak returned %ld, dipc_errno %d\n", r, dipc_errno);
    printf("after: vault %s '%s'\n", vault_show(view) ? "intact" : "CHANGED",
           view);
    return 0;
  }
  char loot[32] = "";
  long r = sneak_longjmp(s, loot, strcmp(mode, "direct") == 0);
  printf("sneak returned %ld, dipc_errno %d\n", r, dipc_errno);
  printf(strstr(loot, "vault") ? "stole '%s'\n" : "nothing stolen%.0s\n",
         loot);
  return 0;
}
