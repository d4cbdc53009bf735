// glibc exports most functions under more than one name: under `sfi` the
// loader intercepted only the public ones, and domain `evil` reached libc
// unchecked through the others. `dlsym`: __madvise from dlsym, called
// with the tag-shadow page that holds the vault page's tag (dropped, the
// page reads as tag 0, the default domain's, which evil may read);
// `direct`: the same by a direct call of __madvise; `key`:
// __pthread_key_create with sigfillset as the destructor and evil's own
// rights row as a thread's value (the thread's exit fills the row with
// ones). Now the import slots of instrumented objects holding an
// intercepted function of libc, under any name, lead to its interceptor,
// and an indirect call of the function itself is refused
// (loader/sfi_alias.c): refused, the read of the secret faults, main gets
// DIPC_EFAULT. Control: under `none` each steals.
// (Found by the attack round of issue #15's session, 2026-11-26.)
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi dlsym 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi direct 2>&1 | FileCheck %s --check-prefix=SFI
// The interceptor behind the alias, without the compiled-in check of the
// call's pointer argument (whose tag lookup faults first on a pointer into
// the shadow):
// RUN: %dipc-clang -fdipc -fdipc-sfi -mllvm -dipc-sfi-call-arguments=false -O2 %s -o %t.noargs -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.noargs direct 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-DIRECT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi key 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi dlsym 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.noargs direct 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi key 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI-DIRECT: dipc: sfi: madvise of memory the domain may not write refused
// SFI-DIRECT: __madvise: -1
// SFI: attack returned 0, dipc_errno 14
// SFI-NEXT: nothing stolen
// STOLEN: stole 'vault-secret-42'
#include "Inputs/vault.h"

#include <dipc/sfi.h>
#include <pthread.h>
#include <signal.h>

#define MATRIX 0x78000000UL /* DIPC_SFI_RIGHTS_ADDR */
#define ROW 2048            /* DIPC_SFI_TAGS */

extern int __madvise(void *, size_t, int);
extern int __pthread_key_create(pthread_key_t *, void (*)(void *));

static pthread_key_t key __dom("evil");
static uintptr_t row_addr __dom("evil");

static void *store_row(void *arg) __dom("evil") {
  (void)arg;
  pthread_setspecific(key, (void *)row_addr);
  return NULL;
}

long attack(const char *mode, void *aux, const volatile char *secret, int k,
            char *loot) {
  (void)aux, (void)k;
  uintptr_t shadow = DIPC_SFI_SHADOW_ADDR + ((uintptr_t)secret >> 12) * 2;
  uintptr_t page = shadow & ~(uintptr_t)4095;
  if (strcmp(mode, "dlsym") == 0) {
    // An integer argument: no pointer to check at the call.
    int (*fn)(uintptr_t, size_t, int) = dlsym(RTLD_DEFAULT, "__madvise");
    printf("__madvise: %d\n", fn(page, 4096, MADV_DONTNEED));
  } else if (strcmp(mode, "direct") == 0) {
    printf("__madvise: %d\n", __madvise((void *)page, 4096, MADV_DONTNEED));
  } else {
    row_addr = MATRIX + (uintptr_t)dipc_current_domain() * ROW;
    int r = __pthread_key_create(&key, (void (*)(void *))sigfillset);
    printf("key_create: %d\n", r);
    pthread_t t;
    if (r == 0 && pthread_create(&t, NULL, store_row, NULL) == 0)
      pthread_join(t, NULL);
  }
  fflush(stdout);
  take(secret, loot);
  return 1;
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "dlsym", NULL);
}
