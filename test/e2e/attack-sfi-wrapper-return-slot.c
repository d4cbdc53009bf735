// A wrapper (one cross-domain call, no loop) has no shadow-stack entry
// under `sfi`: the proxy keeps its return address instead (dipc/sfi.h).
// Attempts to make a wrapper of the default domain return elsewhere:
// `callee`: the wrapper's callee, vault's `smash` (which the default
// domain lets write its memory), finds the wrapper's return address on
// the stack and overwrites it; `slot`: the default domain points its own
// import slot of `smash` at a function of its own that does the same, so
// that the stub's call runs it with no proxy around it; `crash`: smash
// overwrites it and then crashes. Under `sfi` the first returns where it
// was called from (the proxy put the word back), the third too (fault
// recovery did)
// and the second is refused as a control-flow fault before the impostor
// runs (no caller to recover to: the process dies with the report).
// Control: the same binary under `none` follows the forged return address
// each time. The asm check says the wrapper is one (no shadow stack, the
// slot in xmm15). A plain unit names the import slot (Inputs/).
// RUN: %clang -O2 -c %S/Inputs/wrapper-import-slot.c -o %t.slot.o
// RUN: %dipc-clang -fdipc -fdipc-sfi -fdipc-recovery=try -O2 -fno-omit-frame-pointer %s %t.slot.o -o %t.sfi
// RUN: %dipc-clang -fdipc -fdipc-sfi -fdipc-recovery=try -O2 -fno-omit-frame-pointer -S -o - %s | FileCheck %s --check-prefix=ASM
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi callee 2>&1 | FileCheck %s --check-prefix=KEPT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi crash 2>&1 | FileCheck %s --check-prefix=RECOVERED
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=sfi %t.sfi slot 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi callee 2>&1 | FileCheck %s --check-prefix=HIJACKED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi slot 2>&1 | FileCheck %s --check-prefix=HIJACKED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi crash 2>&1 | FileCheck %s --check-prefix=HIJACKED
// ASM-LABEL: wrapper:
// ASM-NOT: %gs:256000
// ASM: movq %xmm15, %rax
// ASM-NEXT: xorq $-1525693471, %rax
// ASM-NOT: %gs:256000
// ASM: .Lfunc_end
// KEPT: smash overwrote {{[1-9][0-9]*}} return address
// KEPT-NEXT: wrapper returned 7 to its caller, dipc_errno 0
// KEPT-NOT: hijacked
// RECOVERED: smash overwrote {{[1-9][0-9]*}} return address, then crashes
// RECOVERED-NOT: hijacked
// RECOVERED: wrapper returned 0 to its caller, dipc_errno 14
// RECOVERED-NOT: hijacked
// REFUSED-NOT: impostor
// REFUSED: dipc: sfi fault: call to 0x{{[0-9a-f]+}} (domain default) refused in the running domain (default): a wrapper's import slot must lead to a proxy
// REFUSED-NOT: hijacked
// HIJACKED: {{smash|impostor}} overwrote {{[1-9][0-9]*}} return address
// HIJACKED-NEXT: return hijacked
#include <dipc.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void hijacked(void) {
  static const char msg[] = "return hijacked\n";
  (void)!write(STDOUT_FILENO, msg, sizeof msg - 1);
  _exit(0);
}

/* Overwrites, in the 512 bytes below `frame`, each word that points into
 * [code, code + 512) with hijacked's address; returns how many. */
static int overwrite_returns(void **frame, const char *code) {
  int n = 0;
  for (void *volatile *p = (void *volatile *)frame - 64;
       p < (void *volatile *)frame; p++)
    if ((const char *)*p >= code && (const char *)*p < code + 512) {
      *p = (void *)hijacked;
      n++;
    }
  return n;
}

/* Vault's entry, which the default domain lets write its memory (its
 * stack included). */
long smash(void **frame, const char *code) __dom("vault") __entry
    __perm("default", write) {
  printf("smash overwrote %d return address\n",
         overwrite_returns(frame, code));
  fflush(stdout);
  return 7;
}

/* The same, then a crash: fault recovery resumes the wrapper. */
long smash_and_crash(void **frame, const char *code) __dom("vault") __entry
    __perm("default", write) {
  printf("smash overwrote %d return address, then crashes\n",
         overwrite_returns(frame, code));
  fflush(stdout);
  return *(volatile long *)0;
}

/* What the import slot of smash is pointed at in `slot` mode: a function
 * of the caller's own domain, called with no proxy around it. */
static long impostor(void **frame, const char *code) {
  printf("impostor overwrote %d return address\n",
         overwrite_returns(frame, code));
  fflush(stdout);
  return 7;
}

/* The wrappers: one cross-domain call each. */
__attribute__((noinline)) long wrapper(void **frame, const char *code) {
  return smash(frame, code);
}

__attribute__((noinline)) long wrapper_crash(void **frame, const char *code) {
  return smash_and_crash(frame, code);
}

void **wrapper_import_slot(void); /* Inputs/wrapper-import-slot.c */

__attribute__((noinline)) static long caller(const char *mode) {
  if (strcmp(mode, "slot") == 0) {
    *wrapper_import_slot() = (void *)impostor;
  }
  long r = strcmp(mode, "crash") == 0
               ? wrapper_crash(__builtin_frame_address(0), (const char *)caller)
               : wrapper(__builtin_frame_address(0), (const char *)caller);
  printf("wrapper returned %ld to its caller, dipc_errno %d\n", r,
         dipc_errno);
  return r;
}

int main(int argc, char **argv) {
  caller(argc > 1 ? argv[1] : "callee");
  return 0;
}
