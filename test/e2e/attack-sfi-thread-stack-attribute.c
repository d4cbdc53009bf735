// A thread's stack named by its attributes (pthread_attr_setstack) is where
// its code's frames go (and libc's thread control block and TLS), and
// instrumented code does not check accesses to its own frame: a thread
// whose stack ends at the end of vault's page holding the secret would
// have its locals in vault's memory. `evil` asks for one (its routine
// runs on evil's own callee stack, through the start proxy, but libc's
// block and TLS would be vault's), and so does main (`main`: the default
// domain's routine runs on that stack itself). Under `sfi` pthread_create
// from instrumented code wants a stack it names writable by the running
// domain, checked on a copy of the attributes (loader/threads.c): evil's
// call gets DIPC_EFAULT, the default domain's stops the process. Control:
// under `none` main's thread runs on vault's page.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi evil 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t.sfi main 2>&1 | FileCheck %s --check-prefix=SFI-MAIN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi main 2>&1 | FileCheck %s --check-prefix=RAN
// SFI-NOT: thread ran
// SFI: attack returned 0, dipc_errno 14
// SFI-MAIN-NOT: thread ran
// SFI-MAIN: dipc: sfi fault: write of 16384 bytes at 0x{{[0-9a-f]+}} (domain {{.*}}) denied to the running domain (default)
// RAN: thread ran on vault's page
#include "Inputs/vault.h"

#include <pthread.h>

static uintptr_t vault_page;

static void *where(void *unused) {
  (void)unused;
  /* Its thread block (at the stack's top, its TLS below it) or frames. */
  uintptr_t sp = (uintptr_t)__builtin_frame_address(0),
            tcb = (uintptr_t)pthread_self();
  if (sp - vault_page < 4096 || tcb - vault_page < 4096)
    printf("thread ran on vault's page\n");
  else
    printf("thread ran elsewhere\n");
  return NULL;
}

static long on_vault_stack(const volatile char *secret) {
  vault_page = (uintptr_t)secret & -(uintptr_t)4096;
  size_t size = 4 * 4096;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, (void *)(vault_page + 4096 - size), size);
  pthread_t t;
  int err = pthread_create(&t, &attr, where, NULL);
  if (err == 0)
    pthread_join(t, NULL);
  fflush(stdout);
  return err;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)aux, (void)key, (void)loot;
  return on_vault_stack(secret);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "evil";
  if (strcmp(mode, "main") == 0)
    return (int)on_vault_stack(vault_address());
  return run_attack(mode, NULL);
}
