// A caller stub calls the proxy its import slot holds, and the slot is the
// calling domain's own memory (rt/import.c), which it may rewrite. Under
// `sfi` the stub checks the slot's target as any indirect call's
// (dipc/sfi.h): the default domain points its slots at the C library's own
// puts (dlvsym finds it; `puts` names the loader's interceptor) and calls
// vault's entry again. Refused and reported; with no caller to recover
// to, the process dies. Control: under `none` the stub calls libc's puts
// with the entry's argument.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefix=NONE
// SFI: first call: 7
// SFI: slots rewritten: {{[1-9][0-9]*}}
// SFI-NOT: hijacked through the slot
// SFI: dipc: sfi fault: indirect call to 0x{{[0-9a-f]+}} (domain {{.*}}) refused in the running domain (default): not a function start it may call
// NONE: first call: 7
// NONE: slots rewritten: {{[1-9][0-9]*}}
// NONE-NEXT: hijacked through the slot
#define _GNU_SOURCE
#include <dipc.h>
#include <dlfcn.h>
#include <stdio.h>

int vault_log(const char *msg) __dom("vault") __entry {
  (void)msg;
  return 7;
}

/* The default domain's import slots (CallerStubs.cpp, DIPC_SLOTS_SECTION). */
extern void *__start_dipc_slots[], *__stop_dipc_slots[];

int main(void) {
  printf("first call: %d\n", vault_log("hello"));
  void *real_puts = dlvsym(RTLD_DEFAULT, "puts", "GLIBC_2.2.5");
  int n = 0;
  for (void **s = __start_dipc_slots; s < __stop_dipc_slots; s++, n++)
    *s = real_puts;
  printf("slots rewritten: %d\n", n);
  fflush(stdout);
  vault_log("hijacked through the slot");
  return 0;
}
