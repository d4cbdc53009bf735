// Under `sfi` libc writes whatever its caller names: domain `evil` tries to
// have it write its own row of the rights matrix (dipc/sfi.h), which would
// give it every right. `modf`: the integral part of a double whose bytes
// are rights, stored over the row (any libc function with a pointer to
// write would do; the compiled-in check of a C library call's pointer
// arguments, docs/compiler.md, stops it); `modf-pointer`: the same call
// through a function pointer (checked after the call check let libc's
// function through); `ioctl`: FIONREAD of a pipe holding 3 bytes, the
// int the kernel writes (ioctl's interceptor, loader/sfi_syscalls.c);
// `waitpid`: a child's exit status, which the domain chooses; `uname`:
// the kernel's names (loader/sfi_kernel.c); `fillset`:
// sigfillset on the row (128 bytes of ones); `procmask`: the old mask of
// sigprocmask, after blocking signals other than the faults' (a domain
// blocking those only makes its next fault end the process); `action`: the old action of
// sigaction; `altstack`: the row as the alternate signal stack, on which
// the kernel would write the next signal's frame (the domain's registers);
// `rwhint`: fcntl(F_GET_RW_HINT), whose u64 (a hint of 3 set just before)
// the kernel stores at the row's byte for the vault's tag (fcntl commands
// the check does not know are refused, the others checked for what they
// touch); `ifconf`: ioctl(SIOCGIFCONF), whose struct holds a buffer
// pointer the kernel writes interface names through ("lo": 'o' is 0x6f),
// at the vault's byte (only listed ioctl requests pass: refused, EPERM);
// `markers`: a stream of evil's own whose marker chain evil points at the
// row: fgetc's underflow subtracts the read span from each marker's
// position, turning the int 0x0300 at the vault's byte into 3 (a stream
// with markers is refused). Under `sfi` the FILE fopen gave evil is a
// decoy (loader/sfi_streams.c): fgetc reads /dev/null's stream, which evil
// cannot reach, and the row stays as it was.
// Each write is refused: `modf` faults in the check before the call, the
// next three in the loader's interceptors (loader/sfi_signals.c,
// signals.c), and main gets
// DIPC_EFAULT; sigaltstack fails with EPERM and the read of vault's secret
// that follows faults. Control: the same source without the checks under
// `none` steals the secret.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lm
// RUN: %dipc-clang -fdipc -O2 %s -o %t -lm
// RUN: %dipc-clang -fdipc -fdipc-sfi -O0 %s -o %t.sfi-O0 -lm
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi modf 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi-O0 modf 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi modf-pointer 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=none %t modf-pointer 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi ioctl 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi waitpid 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi uname 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi fillset 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi procmask 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi action 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi altstack 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-ALTSTACK
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi rwhint 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi ifconf 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-IFCONF
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi markers 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-DECOY
// RUN: %dipc-bin-dir/dipc-run --backend=none %t rwhint 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t ifconf 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t markers > %t.markers 2>&1 || true
// RUN: FileCheck %s --check-prefix=STOLEN < %t.markers
// RUN: %dipc-bin-dir/dipc-run --backend=none %t modf 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t fillset 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t procmask 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI-NOT: stole
// SFI-FAULT-NOT: written
// SFI-DECOY: markers: fgetc returned -1
// SFI-ALTSTACK: dipc: sfi: sigaltstack refused to the running domain
// SFI-ALTSTACK: sigaltstack: -1 (Operation not permitted)
// SFI-IFCONF: dipc: sfi: ioctl(request 0x8912) refused to the running domain
// SFI-IFCONF: ioctl: -1
// SFI: attack returned 0, dipc_errno 14
// SFI-NEXT: nothing stolen
// STOLEN: stole 'vault-secret-42'
#include "Inputs/vault.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <fcntl.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#define MATRIX 0x78000000UL /* DIPC_SFI_RIGHTS_ADDR */
#define ROW 2048            /* DIPC_SFI_TAGS */

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  char *row = (char *)(MATRIX + (uintptr_t)dipc_current_domain() * ROW);
  long vault = (long)aux; /* the vault's tag */
  if (strcmp(mode, "rwhint") == 0) {
    char path[] = "/tmp/dipc-rwhint-XXXXXX";
    int fd = mkstemp(path);
    uint64_t hint = 3; /* RWH_WRITE_LIFE_MEDIUM: read and write */
    unlink(path);
    fcntl(fd, F_SET_RW_HINT, &hint);
    fcntl(fd, F_GET_RW_HINT, (uint64_t *)(row + vault));
    printf("fcntl: written\n");
  } else if (strcmp(mode, "ifconf") == 0) {
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    struct ifconf ifc = {.ifc_len = sizeof(struct ifreq),
                         .ifc_buf = row + vault - 1};
    printf("ioctl: %d\n", ioctl(s, SIOCGIFCONF, &ifc));
    fflush(stdout);
    return *(const volatile long *)secret == *(const long *)"vault-se"
               ? (memcpy(loot, "vault-secret-42", 16), 1)
               : 1;
  } else if (strcmp(mode, "markers") == 0) {
    static char span[1024]; /* evil's */
    FILE *f = fopen("/dev/null", "r");
    if (!f)
      return -1;
    /* the int at row + vault: 0x0300 (3 on evil's own tag, the next one)
     * less 0x2fd is 3 */
    /* (glibc then finds the stream's buffers double-freed at exit under
     * `none`) */
    f->_IO_read_base = span;
    f->_IO_read_ptr = f->_IO_read_end = span + 0x300 - 3;
    f->_markers = (struct _IO_marker *)(row + vault - 16); /* _pos: +16 */
    int c = fgetc(f);
    printf("markers: fgetc returned %d\n", c);
  } else if (strncmp(mode, "modf", 4) == 0) {
    /* 2^65 * 1.0101...: integral, so stored whole; its low 7 bytes are 3
     * (read and write on the first 7 tags, the domains') */
    union {
      uint64_t bits;
      double value;
    } rights = {.bits = 0x4403030303030303ull};
    double (*volatile fn)(double, double *) = modf;
    if (strcmp(mode, "modf") == 0)
      modf(rights.value, (double *)row);
    else
      fn(rights.value, (double *)row);
    printf("modf: written\n");
  } else if (strcmp(mode, "ioctl") == 0) {
    int fds[2];
    if (pipe(fds) == 0 && write(fds[1], "abc", 3) == 3)
      ioctl(fds[0], FIONREAD, (int *)row);
    printf("ioctl: written\n");
  } else if (strcmp(mode, "waitpid") == 0) {
    pid_t child = fork();
    if (child == 0)
      _exit(3); /* status 0x300: byte 1 of the int is 3 */
    if (child > 0)
      waitpid(child, (int *)row, 0);
    printf("waitpid: written\n");
  } else if (strcmp(mode, "uname") == 0) {
    uname((struct utsname *)row);
    printf("uname: written\n");
  } else if (strcmp(mode, "fillset") == 0) {
    sigfillset((sigset_t *)row);
    printf("sigfillset: written\n");
  } else if (strcmp(mode, "procmask") == 0) {
    sigset_t some;
    sigemptyset(&some);
    for (int sig = SIGHUP; sig <= SIGSYS; sig++)
      if (sig != SIGSEGV && sig != SIGBUS && sig != SIGILL &&
          sig != SIGFPE && sig != SIGTRAP && sig != SIGABRT)
        sigaddset(&some, sig);
    sigprocmask(SIG_BLOCK, &some, NULL);
    sigprocmask(SIG_BLOCK, &some, (sigset_t *)row);
    printf("sigprocmask: written\n");
  } else if (strcmp(mode, "action") == 0) {
    sigaction(SIGUSR1, NULL, (struct sigaction *)row);
    printf("sigaction: written\n");
  } else {
    stack_t ss = {.ss_sp = row, .ss_size = 64 * 1024};
    int r = sigaltstack(&ss, NULL);
    printf("sigaltstack: %d (%s)\n", r, r ? strerror(errno) : "ok");
    raise(SIGSEGV);
  }
  fflush(stdout);
  take(secret, loot);
  return 1;
}

long vault_tag(void) __dom("vault") __entry;
long vault_tag(void) { return dipc_current_domain(); }

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "fillset", (void *)vault_tag());
}
