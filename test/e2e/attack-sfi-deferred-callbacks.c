// Under `sfi` libc calls what a domain registers with it later, unchecked,
// as whatever domain runs then: domain `evil` registers functions for
// libc to call after its own call has returned (loader/sfi_callbacks.c).
// `exit-arg`: an on_exit handler that is the C library's getrlimit, with
// evil's own row of the rights matrix (dipc/sfi.h) as its argument
// (getrlimit(0, row): RLIMIT_CPU's two RLIM_INFINITY, 16 bytes of ones:
// every right on the first 16 tags), and before it one of evil's that
// reads the vault's secret at exit, once the row has been written.
// `thread-exit`: sigfillset (128 bytes of ones) through
// __cxa_thread_atexit_impl, the thread_local destructors' registration,
// whose functions libc ran as the default domain.
// `printf-handler`: a printf conversion handler for %s, which libc runs in
// any domain's printf; the vault's next log line would run evil's code as
// the vault, copying the secret where evil reads it. Refused: a library function's argument
// must be memory the domain may write (the row is not: a fault, main gets
// DIPC_EFAULT), thread_local destructors are kept as proxies into evil
// like the exit handlers, and conversion handlers are refused (EPERM). At
// exit evil's reader faults instead. Control: under `none` the same binary
// steals the secret.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi exit-arg > %t.exit-arg 2>&1 || true
// RUN: FileCheck %s --check-prefixes=SFI,SFI-FAULT < %t.exit-arg
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi thread-exit > %t.thread-exit 2>&1 || true
// RUN: FileCheck %s --check-prefixes=SFI,SFI-FAULT < %t.thread-exit
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi printf-handler 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-PRINTF
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi exit-arg 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi thread-exit 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi printf-handler 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI-NOT: stole '
// SFI-FAULT: attack returned 0, dipc_errno 14
// SFI-PRINTF: dipc: sfi: register_printf_specifier refused to the running domain
// SFI-PRINTF: attack returned -1, dipc_errno 0
// SFI: vault: bye
// STOLEN: stole 'vault-secret-42'
#include "Inputs/vault.h"

#include <printf.h>
#include <signal.h>
#include <sys/resource.h>

#define MATRIX 0x78000000UL /* DIPC_SFI_RIGHTS_ADDR */
#define ROW 2048            /* DIPC_SFI_TAGS */

int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);
int __cxa_thread_atexit_impl(void (*fn)(void *), void *arg, void *dso);
extern void *__dso_handle;

// The vault logs through stdio, the default domain's.
int vault_log(const char *what) __dom("vault") __entry
    __perm("default", write) {
  return printf("vault: %s\n", what);
}

// Runs at exit as evil: reads the secret, which its row does not let it
// (its address is no argument: a C library call's pointer arguments are
// checked where it is made, docs/compiler.md).
static void steal_at_exit(void *unused) __dom("evil") {
  (void)unused;
  char loot[32] = "";
  take(vault_secret, loot);
  printf("at exit: stole '%s'\n", loot);
  fflush(stdout);
}

// The default domain's (main uses it too): vault and evil may write it.
static char drop[32];

// %s of any printf, run as the domain that prints: as the vault, it may
// read the secret and leave it where evil can read (no call: evil's own
// memory, the import slots among it, is not the vault's to read).
static int print_s(FILE *stream, const struct printf_info *info,
                   const void *const *args) __dom("evil") {
  (void)stream, (void)info, (void)args;
  for (int i = 0; i < 15; i++)
    drop[i] = vault_secret[i];
  return 0;
}

long collect(void) __dom("evil") __entry __perm("default", write) {
  if (drop[0])
    fputs("collected: stole '", stdout), fputs(drop, stdout),
        fputs("'\n", stdout);
  return 0;
}

static int print_s_arginfo(const struct printf_info *info, size_t n,
                           int *types, int *size) __dom("evil") {
  (void)info, (void)size;
  if (n > 0)
    types[0] = PA_STRING;
  return 1;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key, (void)loot;
  char *row = (char *)(MATRIX + (uintptr_t)dipc_current_domain() * ROW);
  if (strcmp(mode, "printf-handler") == 0)
    return register_printf_specifier('s', print_s, print_s_arginfo);
  // Registered first, run last: after the row was written.
  if (__cxa_atexit(steal_at_exit, NULL, NULL) != 0)
    return -1;
  if (strcmp(mode, "thread-exit") == 0)
    return __cxa_thread_atexit_impl((void (*)(void *))sigfillset, row,
                                    __dso_handle) == 0;
  // on_exit's handler gets exit's status, 0 here: getrlimit(RLIMIT_CPU,
  // row) stores RLIM_INFINITY twice, 16 bytes of ones.
  return on_exit((void (*)(int, void *))getrlimit, row) == 0;
}

int main(int argc, char **argv) {
  memset(drop, 0, sizeof drop);
  run_attack(argc > 1 ? argv[1] : "exit-arg", NULL);
  vault_log("bye");
  fflush(stdout);
  collect();
  fflush(stdout);
  return 0;
}
