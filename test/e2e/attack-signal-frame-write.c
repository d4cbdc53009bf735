// Linux 6.12 writes a signal frame with every protection key enabled (so
// that a key-0 alternate stack works whatever PKRU the thread ran with):
// on the thread's rsp, or on the alternate stack it names, both of which
// any code may set. Domain `evil` starts a thread that points its
// alternate stack at a page of the vault's (raw sigaltstack), installs a
// handler of its own there (raw rt_sigaction) and signals itself: the
// kernel writes the frame, registers the thread chose included, into the
// vault's memory. Stopping this needs the runtime to own rt_sigaction,
// sigaltstack and thread creation (docs/runtime.md §6): not done yet, so
// under mpk the vault is still changed.
// XFAIL: *
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefix=CHANGED
// MPK: vault unchanged
// CHANGED: vault changed
#define _GNU_SOURCE
#include "Inputs/vault.h"

#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

static char vault_page[4096] __dom("vault") __attribute__((aligned(4096)));
char *vault_page_address(void) __dom("vault") __entry { return vault_page; }
long vault_unchanged(void) __dom("vault") __entry {
  for (int i = 0; i < 4096; ++i)
    if (vault_page[i])
      return 0;
  return 1;
}

struct kernel_sigaction {
  void (*handler)(void);
  unsigned long flags;
  void (*restorer)(void);
  unsigned long mask;
};

// The handler runs with the kernel's signal PKRU (key 0 only) on the
// vault's page: it leaves for a key-0 stack and ends the thread.
char handler_stack[4096] __attribute__((aligned(16)));
__attribute__((naked)) static void handler(void) {
  __asm__("lea handler_stack+4096(%rip), %rsp\n\t"
          "mov $60, %eax\n\txor %edi, %edi\n\tsyscall"); // exit(0)
}

static void *frame_writer(void *page) {
  stack_t ss = {.ss_sp = page, .ss_size = 4096};
  syscall(SYS_sigaltstack, &ss, NULL);
  struct kernel_sigaction act = {handler, SA_ONSTACK | 0x04000000, handler,
                                 0};
  syscall(SYS_rt_sigaction, SIGUSR2, &act, NULL, 8);
  syscall(SYS_tgkill, getpid(), gettid(), SIGUSR2);
  return NULL;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)aux, (void)key, (void)loot;
  pthread_t t;
  (void)secret;
  pthread_create(&t, NULL, frame_writer, aux);
  pthread_join(t, NULL);
  return 0;
}

int main(void) {
  run_attack("signal frame", vault_page_address());
  printf("vault %s\n", vault_unchanged() ? "unchanged" : "changed");
  return 0;
}
