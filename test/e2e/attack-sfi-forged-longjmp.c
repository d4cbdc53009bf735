// Under `sfi` a longjmp resumes only the context a setjmp saved into that
// buffer on this thread (dipc/sfi.h, DIPC_SFI_CFI_JUMP). glibc mangles the
// buffer's stack pointer, frame pointer and return address with the
// thread's pointer guard, but the guard lies in the TCB, which `evil` may
// read: it saves a real context with _setjmp, then forges the buffer and
// longjmps. `pc`: the return address becomes a function of its own that
// no jump may reach (the middle of a function would pass over its checks
// the same way); `rbx`: a callee-saved register's value is changed (the
// code after a setjmp trusts what it kept there); `stale`: a context
// saved by a frame that has returned, after a setjmp higher on the stack;
// `foreign`: a buffer holding a context saved into another buffer. Each is
// refused and main gets DIPC_EFAULT. `context`: setcontext of a ucontext_t
// whose saved rip it changed (nothing is mangled there); setcontext and
// swapcontext are refused to instrumented code (EPERM). `atexit`: the
// same context handed to libc as an exit handler's argument, setcontext
// as the handler (libc would call it, uninstrumented, at exit): refused
// when registered, as any of the loader's interceptors as a handler. The same done by the default domain,
// with no call to recover to, stops the process with the report.
// Control: under `none` the forged jump is taken.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi pc 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi rbx 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi stale 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi foreign 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi context 2>&1 | FileCheck %s --check-prefix=CONTEXT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi atexit 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t.sfi main-pc 2>&1 | FileCheck %s --check-prefix=MAIN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi pc 2>&1 | FileCheck %s --check-prefix=HIJACKED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi rbx 2>&1 | FileCheck %s --check-prefix=REG
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi foreign 2>&1 | FileCheck %s --check-prefix=FOREIGN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi context 2>&1 | FileCheck %s --check-prefix=HIJACKED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi atexit 2>&1 | FileCheck %s --check-prefix=HIJACKED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi main-pc 2>&1 | FileCheck %s --check-prefix=HIJACKED
// SFI-NOT: hijacked
// SFI-NOT: resumed
// SFI: attack returned 0, dipc_errno 14
// SFI-NEXT: nothing stolen
// MAIN-NOT: hijacked
// MAIN: dipc: sfi fault: longjmp through the buffer at 0x{{[0-9a-f]+}} refused in the running domain (default): it holds no context this thread saved there (the last one saved there returns to 0x{{[0-9a-f]+}})
// CONTEXT-NOT: hijacked
// CONTEXT: dipc: sfi: setcontext refused to the running domain (it would undo the isolation)
// CONTEXT: setcontext returned -1
// CONTEXT: attack returned 1, dipc_errno 0
// HIJACKED: jump hijacked
// REG: resumed with rbx changed
// FOREIGN: resumed through another buffer
#include "Inputs/vault.h"
#include "Inputs/pointer-guard.h"

#include <pthread.h>
#include <setjmp.h>
#include <ucontext.h>
#include <unistd.h>

int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);

enum { JB_RBX = 0, JB_PC = 7 };

static void hijacked(void) {
  static const char msg[] = "jump hijacked\n";
  (void)!write(STDOUT_FILENO, msg, sizeof msg - 1);
  _exit(0);
}

/* glibc's mangling: rol 0x11 of the value xor the TCB's pointer guard. */
static jmp_buf stale_buf;

__attribute__((noinline)) static void save_and_return(void) {
  if (_setjmp(stale_buf))
    printf("resumed a returned frame\n");
}

static volatile int resumed;

__attribute__((noinline)) static long forge(const char *mode) {
  jmp_buf buf, other;
  if (strcmp(mode, "stale") == 0) {
    save_and_return();
    if (_setjmp(buf) == 0) /* higher on the stack: that frame is gone */
      _longjmp(stale_buf, 1);
    return 1;
  }
  if (strcmp(mode, "context") == 0 || strcmp(mode, "atexit") == 0) {
    static ucontext_t uc;
    static volatile int once;
    getcontext(&uc);
    if (once++)
      return 2;
    uc.uc_mcontext.gregs[REG_RIP] = (greg_t)hijacked;
    if (strcmp(mode, "atexit") == 0)
      return __cxa_atexit((void (*)(void *))setcontext, &uc, NULL);
    printf("setcontext returned %d\n", setcontext(&uc));
    return 1;
  }
  if (strcmp(mode, "foreign") == 0) {
    if (_setjmp(other) == 0) {
      memcpy(buf, other, sizeof buf);
      _longjmp(buf, 1);
    }
    printf("resumed through another buffer\n");
    return 1;
  }
  if (_setjmp(buf)) {
    if (resumed++ == 0)
      printf("resumed with rbx changed\n");
    return 1;
  }
  if (strcmp(mode, "rbx") == 0)
    buf[0].__jmpbuf[JB_RBX] ^= 0x1000;
  else
    buf[0].__jmpbuf[JB_PC] = (long)glibc_mangle((uintptr_t)hijacked);
  _longjmp(buf, 1);
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)secret, (void)key, (void)loot;
  return forge(mode);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "pc";
  if (strncmp(mode, "main-", 5) != 0)
    return run_attack(mode, NULL);
  forge(mode + 5);
  printf("main returned\n");
  return 0;
}
