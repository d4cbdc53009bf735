// libgcc's unwinder (libgcc_s, loaded with libdipc) calls the stop
// function of _Unwind_ForcedUnwind and the trace function of
// _Unwind_Backtrace with no check of where they point: an attack round's
// `evil` gave a stop function pointing into the middle of one of its
// functions, past the check of a pointer, with the exception's class (the
// third argument) set to vault's secret's address, and libgcc's call
// copied the secret. Under `sfi` both are refused to instrumented code
// (loader/sfi_refused.c): the call fails with _URC_FATAL_PHASE1_ERROR (3)
// and the function given never runs. Control: under `none` libgcc calls
// it (here a function start that only says so). Mode resume: an exception
// evil forged with its function as private_1, the stop function of a
// forced unwind, handed to _Unwind_Resume as a landing pad would: from a
// named domain, the loader refuses a forced unwind there (the call
// faults), and raises an exception again instead (loader/sfi_refused.c).
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi forced 2>&1 | FileCheck %s --check-prefix=SFI -DCALL=_Unwind_ForcedUnwind
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi trace 2>&1 | FileCheck %s --check-prefix=SFI -DCALL=_Unwind_Backtrace
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi forced 2>&1 | FileCheck %s --check-prefix=RAN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi trace 2>&1 | FileCheck %s --check-prefix=RAN
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi resume 2>&1 | FileCheck %s --check-prefix=RESUME
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi resume 2>&1 | FileCheck %s --check-prefix=RAN
// SFI: dipc: sfi: [[CALL]] refused
// SFI-NOT: ran
// SFI: attack returned 3, dipc_errno 0
// RAN: libgcc called evil's function
// RESUME: dipc: sfi: _Unwind_Resume of a forced unwind refused
// RESUME-NOT: libgcc called
// RESUME: attack returned 0, dipc_errno 14
#include "Inputs/vault.h"

#include <unistd.h>
#include <unwind.h>

static int ran;

static _Unwind_Reason_Code stop(int version, _Unwind_Action actions,
                                _Unwind_Exception_Class cls,
                                struct _Unwind_Exception *e,
                                struct _Unwind_Context *ctx, void *arg) {
  (void)version, (void)actions, (void)cls, (void)e, (void)ctx, (void)arg;
  if (!ran++)
    printf("libgcc called evil's function\n");
  if (actions & _UA_END_OF_STACK) { /* a resumed forced unwind: libgcc */
    fflush(stdout);                 /* would abort after this */
    _exit(0);
  }
  return _URC_NO_REASON;
}

static _Unwind_Reason_Code trace(struct _Unwind_Context *ctx, void *arg) {
  (void)ctx, (void)arg;
  if (!ran++)
    printf("libgcc called evil's function\n");
  return _URC_END_OF_STACK;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key, (void)loot;
  static struct _Unwind_Exception exc;
  exc.exception_class = (uint64_t)(uintptr_t)secret;
  if (!strcmp(mode, "trace"))
    return _Unwind_Backtrace(trace, NULL);
  if (!strcmp(mode, "resume")) {
    exc.private_1 = (uintptr_t)stop;
    _Unwind_Resume(&exc);
  }
  return _Unwind_ForcedUnwind(&exc, stop, NULL);
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "forced", NULL);
}
