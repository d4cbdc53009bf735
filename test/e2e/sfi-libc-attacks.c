// Under backend `sfi`, libc runs unchecked on behalf of its caller, so the
// loader's interceptors check the memory an instrumented caller names to
// memcpy, read, snprintf (also its _FORTIFY_SOURCE form __snprintf_chk)
// and sscanf against the running domain's rights, and that a stream's
// buffer pointers point where the domain may write (a FILE forged in the
// domain's own memory with its write buffer in vault's). Domain
// thief, with write access to the default domain (for stdout), is handed
// vault's secret and buffer and passes them to libc: each attempt is
// refused and the call to thief returns DIPC_EFAULT (14) to main; the
// default domain doing the same outside any call dies with SIGSEGV after
// the fault report. Negative control: `--backend=none` leaks the secret
// and overwrites vault's buffer.
// -fno-builtin keeps the libc calls calls (not inline code the compiled-in
// checks would cover), so that the interceptors are what is tested.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -fno-builtin %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t memcpy 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-MEMCPY
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t read 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-READ
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t snprintf-arg 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-SNPRINTF-ARG
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t snprintf-pos 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-SNPRINTF-POS
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t snprintf-n 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-SNPRINTF-N
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t snprintf-dst 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-SNPRINTF-DST
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t sscanf-dst 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-SSCANF-DST
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t forged-file 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FORGED-FILE
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t main-memcpy 2>&1 | FileCheck %s --check-prefix=SFI-MAIN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t memcpy 2>&1 | FileCheck %s --check-prefix=NONE-LEAK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t read 2>&1 | FileCheck %s --check-prefix=NONE-OVERWRITE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t snprintf-arg 2>&1 | FileCheck %s --check-prefix=NONE-LEAK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t snprintf-pos 2>&1 | FileCheck %s --check-prefix=NONE-LEAK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t snprintf-n 2>&1 | FileCheck %s --check-prefix=NONE-COUNT
// RUN: %dipc-bin-dir/dipc-run --backend=none %t snprintf-dst 2>&1 | FileCheck %s --check-prefix=NONE-OVERWRITE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t sscanf-dst 2>&1 | FileCheck %s --check-prefix=NONE-OVERWRITE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t forged-file 2>&1 | FileCheck %s --check-prefix=NONE-FORGED-FILE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t main-memcpy 2>&1 | FileCheck %s --check-prefix=NONE-MAIN
// _FORTIFY_SOURCE: snprintf is __snprintf_chk.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -fno-builtin -D_FORTIFY_SOURCE=2 %s -o %t.fortify
// RUN: llvm-nm -u %t.fortify | FileCheck %s --check-prefix=FORTIFY
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.fortify snprintf-arg 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-SNPRINTF-ARG
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.fortify snprintf-dst 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-SNPRINTF-DST
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.fortify snprintf-arg 2>&1 | FileCheck %s --check-prefix=NONE-LEAK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.fortify snprintf-dst 2>&1 | FileCheck %s --check-prefix=NONE-OVERWRITE
//
// SFI-MEMCPY: attack memcpy
// SFI-READ: attack read
// SFI-SNPRINTF-ARG: attack snprintf-arg
// SFI-SNPRINTF-POS: attack snprintf-pos
// SFI-SNPRINTF-N: attack snprintf-n
// SFI-SNPRINTF-DST: attack snprintf-dst
// SFI-SSCANF-DST: attack sscanf-dst
// SFI-FORGED-FILE: attack forged-file
// SFI-NOT: stole
// SFI: thief returned 0, dipc_errno 14
// SFI-NEXT: vault's buffer: 'vault-buffer'
// SFI-MAIN: attack main-memcpy
// SFI-MAIN-NEXT: dipc: sfi fault: read of 32 bytes at 0x{{[0-9a-f]+}} (domain vault) denied to the running domain (default)
// SFI-MAIN-NOT: stole
// NONE-LEAK: stole 'vault-secret-42'
// NONE-LEAK: thief returned 1, dipc_errno 0
// NONE-OVERWRITE: thief returned 1, dipc_errno 0
// NONE-OVERWRITE-NEXT: vault's buffer: 'pwned'
// NONE-COUNT: thief returned 1, dipc_errno 0
// NONE-COUNT-NEXT: vault's buffer: '{{.}}'
// NONE-FORGED-FILE: thief returned 1, dipc_errno 0
// NONE-FORGED-FILE-NEXT: vault's buffer: 'pwned-buffer'
// NONE-MAIN: main stole 'vault-secret-42'
// FORTIFY: __snprintf_chk
#include <dipc.h>
#include <stdalign.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char secret[32] __dom("vault") = "vault-secret-42";
static char buffer[32] __dom("vault") = "vault-buffer";

const char *secret_address(void) __dom("vault") __entry { return secret; }
char *buffer_address(void) __dom("vault") __entry { return buffer; }
void show_buffer(void) __dom("vault") __entry __perm("default", write) {
  printf("vault's buffer: '%s'\n", buffer);
}

static int pipe_in;

int attack(const char *what, const char *victim_secret, char *victim_buf)
    __dom("thief") __entry __perm("default", write) {
  char copy[32] = "";
  if (!strcmp(what, "memcpy"))
    memcpy(copy, victim_secret, sizeof copy);
  else if (!strcmp(what, "read"))
    return read(pipe_in, victim_buf, 6) == 6;
  else if (!strcmp(what, "snprintf-arg"))
    snprintf(copy, sizeof copy, "%s", victim_secret);
  else if (!strcmp(what, "snprintf-pos"))
    /* Positional, its precision an argument, after a conversion that
     * takes no memory (%.0d of 0 prints nothing). */
    snprintf(copy, sizeof copy, "%3$.0d%2$.*1$s", 40, victim_secret, 0);
  else if (!strcmp(what, "snprintf-n"))
    /* %n writes the count, 1, over vault's buffer. */
    snprintf(copy, sizeof copy, "%d%n", 7, (int *)victim_buf);
  else if (!strcmp(what, "snprintf-dst"))
    return snprintf(victim_buf, 32, "pwned") == 5;
  else if (!strcmp(what, "sscanf-dst"))
    return sscanf("pwned", "%31s", victim_buf) == 1;
  else if (!strcmp(what, "forged-file")) {
    /* stdout's FILE and vtable pointer, its write buffer moved to vault's
     * buffer: stdio copies "pwned" there. */
    alignas(16) char fake[sizeof(FILE) + 8];
    memcpy(fake, stdout, sizeof fake);
    FILE *f = (FILE *)fake;
    f->_IO_write_base = f->_IO_write_ptr = victim_buf;
    f->_IO_write_end = victim_buf + 32;
    return fputs("pwned", f) >= 0;
  }
  printf("stole '%s'\n", copy);
  return 1;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  if (argc != 2)
    return 2;
  int fds[2];
  if (pipe(fds) != 0 || write(fds[1], "pwned", 6) != 6)
    return 2;
  pipe_in = fds[0];
  const char *victim_secret = secret_address();
  char *victim_buf = buffer_address();
  printf("attack %s\n", argv[1]);
  if (!strcmp(argv[1], "main-memcpy")) {
    char copy[32];
    memcpy(copy, victim_secret, sizeof copy);
    printf("main stole '%s'\n", copy);
    return 0;
  }
  int r = attack(argv[1], victim_secret, victim_buf);
  printf("thief returned %d, dipc_errno %d\n", r, (int)dipc_errno);
  show_buffer();
  return 0;
}
