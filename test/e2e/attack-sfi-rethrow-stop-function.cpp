// A rethrow (`throw;`: libstdc++'s __cxa_rethrow, then libgcc's
// _Unwind_Resume_or_Rethrow) treats an exception whose private_1 is set as
// a forced unwind and calls private_1 as its stop function, with private_2:
// an attack round's `evil` raised an exception of its own (foreign, in its
// memory), caught it with catch (...), set private_1 to libc's syscall and
// the class to vault's secret's address, and rethrew: libgcc wrote the
// secret to a file descriptor. Under `sfi` the loader refuses, while a
// named domain runs, a forced unwind resumed or rethrown, whoever calls
// (loader/sfi_refused.c): the call faults, main gets DIPC_EFAULT and the
// function given never runs. Control: under `none` libgcc calls it (here
// a function start that only says so).
//
// Mode readonly: the loader raises a resumed exception again
// (_Unwind_RaiseException), which writes the object's private_1 and
// private_2; `evil`, granted only reading vault, handed it vault's data as
// the object, and the first loader that did so checked it for reading
// only: 8 bytes of vault's were written. The object must be the running
// domain's to write. (No `none` control: the path exists under `sfi`.)
// RUN: %dipc-clangxx -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi rethrow 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi rethrow 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi readonly 2>&1 | FileCheck %s --check-prefix=READONLY
// SFI: evil caught its own exception
// SFI-NEXT: dipc: sfi: _Unwind_Resume_or_Rethrow of a forced unwind refused
// SFI-NOT: libgcc called
// SFI: evil returned 0, dipc_errno 14
// NONE: evil caught its own exception
// NONE-NEXT: libgcc called evil's function
// READONLY: evil returned 0, dipc_errno 14
// READONLY-NEXT: vault's bytes 24..31: 0
#include <dipc.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <unwind.h>

// An _Unwind_Exception's first 32 bytes: class, cleanup (none), private_1
// (0: not a forced unwind, so the loader raises it again) and private_2.
static uint64_t vault_data[4] __dom("vault") __attribute__((aligned(16))) = {
    0x5641554c54000000ull, 0, 0, 0};

extern "C" const void *vault_address(void) __dom("vault") __entry {
  return vault_data;
}
extern "C" long vault_word3(void) __dom("vault") __entry {
  return (long)vault_data[3];
}

static struct _Unwind_Exception own __dom("evil") __attribute__((aligned(16)));

static _Unwind_Reason_Code stop(int, _Unwind_Action, _Unwind_Exception_Class,
                                struct _Unwind_Exception *,
                                struct _Unwind_Context *, void *) {
  printf("libgcc called evil's function\n");
  fflush(stdout);
  _exit(0);
}

// readonly: a number, since evil may not read main's strings.
extern "C" long evil_attack(int readonly, const void *vault) __dom("evil")
    __entry __perm("vault", read) {
  if (readonly) {
    try {
      _Unwind_Resume((struct _Unwind_Exception *)vault);
    } catch (...) {
      return 1;
    }
    return 2;
  }
  own.exception_class = 0x4556494c00000000ull; // foreign to C++
  try {
    _Unwind_Resume(&own);
  } catch (...) {
    static const char caught[] = "evil caught its own exception\n";
    (void)!write(1, caught, sizeof caught - 1); // libc's stdout is not evil's
    own.private_1 = (uintptr_t)stop;
    throw;
  }
  return 3;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "rethrow";
  const void *vault = vault_address();
  long r = evil_attack(!strcmp(mode, "readonly"), vault);
  printf("evil returned %ld, dipc_errno %d\n", r, dipc_errno);
  printf("vault's bytes 24..31: %#lx\n", (unsigned long)vault_word3());
  return 0;
}
