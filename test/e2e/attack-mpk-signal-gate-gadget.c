// Under mpk the runtime's signal gates (__dipc_signal_enter and _leave,
// __dipc_recover_from_fault, __dipc_timeout_tick: RECOVER_GATE, gate.S)
// serve the loader's signal handlers only: they took a return address in
// trusted text and a PKRU with key 0 rights for proof. Domain `evil`,
// which has a write grant on the default domain, jumped to
// __dipc_signal_enter with a `ret` of libdipc as its return address and a
// ucontext of its making on a fresh page of the default domain's: the
// gate made it the default domain, whose owner handles granted evil the
// vault, and __dipc_signal_leave and a stack-free gate put it back with
// the wider image. Now the gates also want the PKRU Linux gives a handler
// (every key but 0 disabled) or the default domain's image an earlier
// gate of the handler installed; evil's own image is neither: refused,
// the read of the secret faults, main gets DIPC_EFAULT. Control: under
// `none` the gate serves it and the secret is read.
// (Found by the attack round of issue #15's session, 2026-11-26.)
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=mpk %t 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=STOLEN
// MPK: signal_enter gate: refused
// MPK: attack returned 0, dipc_errno 14
// MPK-NEXT: nothing stolen
// STOLEN: stole 'vault-secret-42'
#define _GNU_SOURCE
#include "Inputs/vault.h"

#include <stddef.h>
#include <ucontext.h>
extern void __dipc_fault_landed(void *);
extern void __dipc_setjmp_arm(void *);

// Default-domain memory (no __dom): evil may write it. Fake "alternate
// stack" on which the handler gate believes it runs.
// (Statics used only by evil's code would be placed in evil's pages, so
// the default-domain memory is a fresh anonymous mapping: key 0, owned by
// no domain, i.e. the default domain's.)
#define FAKE_SIZE (1 << 16)
struct ctl {
  void *gadget, *enter, *leave, *arm, *stage2;
  ucontext_t *uc;
  char *top;
  long result;
  char name_vault[8], name_evil[8];
  long entered; // what __dipc_signal_enter returned
};
enum { ENTERED_OFF = offsetof(struct ctl, entered) };

// Runs as the DEFAULT domain, on fake_stack.
__attribute__((noinline)) static long as_default(struct ctl *c) {
  dom_t v = dipc_domain_named(c->name_vault);
  dom_t e = dipc_domain_named(c->name_evil);
  long g = grant_create(e, v); // evil's APL += vault (write)
  c->result = (v > 0 && e > 0) ? g : -1000 + (long)v;
  return g;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)aux, (void)key;
  char *fake_stack = mmap(NULL, FAKE_SIZE, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  struct ctl *cp = (struct ctl *)(fake_stack + FAKE_SIZE - 4096);
#define ctl (*cp)
  strcpy(ctl.name_vault, "vault");
  strcpy(ctl.name_evil, "evil");
  ctl.gadget = (void *)__dipc_fault_landed; // `ret` in libdipc's text
  ctl.enter = (void *)__dipc_signal_enter;
  ctl.leave = (void *)__dipc_signal_leave;
  ctl.arm = (void *)__dipc_setjmp_arm;
  ctl.stage2 = (void *)as_default;
  ctl.uc = (ucontext_t *)(fake_stack + 256);
  ctl.top = fake_stack + FAKE_SIZE - 8192;
  ctl.uc->uc_stack.ss_sp = fake_stack;
  ctl.uc->uc_stack.ss_size = FAKE_SIZE;
  ctl.uc->uc_stack.ss_flags = 0;
  ctl.uc->uc_mcontext.fpregs = NULL;
  __asm__ volatile(
      "mov %[c], %%rbx\n\t"
      "mov %%rsp, %%r12\n\t"          // evil's stack
      "lea 1f(%%rip), %%rax\n\t"
      "push %%rax\n\t"                // [r13] = 1f, for the last gate's ret
      "mov %%rsp, %%r13\n\t"
      "mov 40(%%rbx), %%rax\n\t"      // uc
      "mov %%r13, %c[rsp_off](%%rax)\n\t"
      "mov 48(%%rbx), %%rsp\n\t"      // fake stack (default domain)
      "sub $8, %%rsp\n\t"
      "lea 2f(%%rip), %%rax\n\t"
      "push %%rax\n\t"
      "push 0(%%rbx)\n\t"             // return address: libdipc's `ret`
      "mov 40(%%rbx), %%rdi\n\t"
      "jmp *8(%%rbx)\n"               // __dipc_signal_enter(uc)
      "2:\n\t"
      "mov %%rax, %c[entered_off](%%rbx)\n\t"
      "test %%eax, %%eax\n\t"
      "jz 4f\n\t"                   // refused: back to evil's stack
      "and $-16, %%rsp\n\t"
      "mov %%rbx, %%rdi\n\t"
      "call *32(%%rbx)\n\t"           // as_default(), as the default domain
      "sub $8, %%rsp\n\t"
      "lea 3f(%%rip), %%rax\n\t"
      "push %%rax\n\t"
      "push 0(%%rbx)\n\t"
      "mov 40(%%rbx), %%rdi\n\t"
      "jmp *16(%%rbx)\n"              // __dipc_signal_leave(uc): back to evil
      "3:\n\t"
      "mov %%r13, %%rsp\n\t"          // evil's stack, [rsp] = 1f (no write)
      "xor %%edi, %%edi\n\t"
      "jmp *24(%%rbx)\n"              // __dipc_setjmp_arm(NULL): evil's image
      "1:\n\t"
      "4:\n\t"
      "mov %%r12, %%rsp\n\t"
      :
      : [c] "r"(cp), [rsp_off] "i"(offsetof(ucontext_t,
                                             uc_mcontext.gregs[REG_RSP])),
        [entered_off] "i"(ENTERED_OFF)
      : "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11",
        "r12", "r13", "r14", "r15", "memory", "cc");
  printf("signal_enter gate: %s\n",
         ctl.entered ? "entered, as the default domain" : "refused");
  if (ctl.entered)
    printf("as default: grant_create -> %ld\n", ctl.result);
  fflush(stdout);
  take(secret, loot);
  return 0;
}

int main(void) { return run_attack("signal-enter gate via ret gadget", NULL); }
