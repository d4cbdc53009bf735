// After a call into a domain with a fault hook crashes, recovery resumes
// the caller in the hook trampoline (rt/gate.S), which runs the hook and
// then resumes the caller. The trampoline kept the resume address and
// every register on the caller's stack: `evil` is both caller and callee
// here (its own entry, called through its address, crashes), and its hook,
// on the same stack just below, rewrote the saved resume address. Under
// `sfi` the trampoline keeps them in the thread's state, which no domain
// writes, and the hook, entered through a proxy, cannot write the frames
// above its call on the stack (dipc/sfi.h, DIPC_SFI_TAG_STACK): its
// rewrite faults, and the call returns 0 with DIPC_EFAULT. `plain`: the
// same hook without the scan. Control: `none` follows the rewritten
// address.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi rewrite 2>&1 | FileCheck %s --check-prefixes=RAN,SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi plain 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi rewrite 2>&1 | FileCheck %s --check-prefixes=RAN,HIJACKED
// RAN: hook: scanning the caller's frames
// HIJACKED-NEXT: hook: {{[1-9][0-9]*}} word(s) rewritten
// HIJACKED: jump hijacked
// SFI-NOT: rewritten
// SFI-NOT: hijacked
// SFI: call returned 0, dipc_errno 14
#include "Inputs/vault.h"

#include <unistd.h>

static void hijacked(void) {
  static const char msg[] = "jump hijacked\n";
  (void)!write(STDOUT_FILENO, msg, sizeof msg - 1);
  _exit(0);
}

static int rewrite __dom("evil");
static char *caller_frame __dom("evil");
static volatile int zero __dom("evil");

long self_crash(long x) __dom("evil") __entry;
long self_crash(long x) {
  *(volatile long *)(uintptr_t)zero = x;
  return x;
}

__attribute__((noinline)) static long call_self(void) __dom("evil");
static void on_fault(void) __dom("evil");

static void on_fault(void) {
  if (!rewrite)
    return;
  static const char scanning[] = "hook: scanning the caller's frames\n";
  (void)!write(STDOUT_FILENO, scanning, sizeof scanning - 1);
  int hits = 0;
  for (void **p = __builtin_frame_address(0); (char *)p < caller_frame; ++p)
    if ((char *)*p >= (char *)call_self && (char *)*p < (char *)call_self + 0x1000) {
      *p = (void *)hijacked;
      hits++;
    }
  char line[64];
  int n = snprintf(line, sizeof line, "hook: %d word(s) rewritten\n", hits);
  (void)!write(STDOUT_FILENO, line, (size_t)n);
}

__attribute__((noinline)) static long call_self(void) {
  caller_frame = __builtin_frame_address(0);
  long (*volatile f)(long) = self_crash;
  return f(5);
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)secret, (void)key, (void)loot;
  rewrite = strcmp(mode, "plain") != 0;
  printf("set hook: %d\n", dipc_set_fault_hook(on_fault));
  fflush(stdout);
  long r = call_self();
  printf("call returned %ld, dipc_errno %d\n", r, dipc_errno);
  return r;
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "rewrite", NULL);
}
