// Every caller stub enters the proxy with the stack a SysV call has
// (rsp = 8 mod 16 after the call pushed its return address), whatever the
// shape of its caller: a leaf wrapper whose only call is the stub (at -O1
// and above shrink-wrapping used to leave it without a frame under try
// style), a stub on one path only (the frame may stay off the other), and
// callers with a variable-sized or an over-aligned local (they call the
// thunk). (A call through a function pointer is a plain indirect call of
// the entry's anycall stub, which needs the runtime: the e2e tests
// stack-aligned-at-callee-entry-* cover it.) A mini loader fills the slots with a proxy that records rsp and
// jumps to the callee stub. Control: a plain call of the recording proxy.
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O0 -o %t.try0 %s && %t.try0 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O1 -o %t.try1 %s && %t.try1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 -o %t.try2 %s && %t.try2 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O3 -o %t.try3 %s && %t.try3 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -Os -o %t.trys %s && %t.trys | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 -o %t.sj0 %s && %t.sj0 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O1 -o %t.sj1 %s && %t.sj1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O2 -o %t.sj2 %s && %t.sj2 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O3 -o %t.sj3 %s && %t.sj3 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -Os -o %t.sjs %s && %t.sjs | FileCheck %s
// CHECK: control: rsp%16=8
// CHECK-NEXT: leaf wrapper: 7, rsp%16=8
// CHECK-NEXT: on one path: 12, rsp%16=8
// CHECK-NEXT: variable-sized local: 9, rsp%16=8
// CHECK-NEXT: over-aligned local: 10, rsp%16=8
#include <dipc.h>
#include <dipc/metadata.h>
#include <stdio.h>

long twice(long a) __dom("db") __entry;
long twice(long a) { return a + 6; }

void *callee_stub;
long seen_rsp;
void recording_proxy(void);
__asm__(".text\n recording_proxy:\n mov %rsp, seen_rsp(%rip)\n"
        " jmp *callee_stub(%rip)\n");

// Not const: a slot address derived from a const object could not be
// stored through (the compiler would drop the store).
extern struct dipc_entry_record __start_dipc_entries[], __stop_dipc_entries[];
extern struct dipc_import_record __start_dipc_imports[], __stop_dipc_imports[];
/* This test fills the slots itself: it is its own loader. */
const int __dipc_loader_version = 1;

static void *ref(dipc_rel_t *field) { return (char *)field + *field; }

__attribute__((noinline)) static long leaf(long a) { return twice(a); }

__attribute__((noinline)) static long one_path(long a) {
  if (a > 3)
    return twice(a);
  return a * 2;
}

__attribute__((noinline)) static long with_vla(long a, int n) {
  volatile char buf[n];
  buf[0] = 0;
  return twice(a) + buf[0];
}

__attribute__((noinline)) static long with_overaligned(long a) {
  volatile char big[64] __attribute__((aligned(64)));
  big[0] = 0;
  return twice(a) + big[0];
}

__attribute__((noinline)) static void nothing(void) {}

static void report(const char *shape, long got) {
  printf("%s: %ld, rsp%%16=%ld\n", shape, got, seen_rsp % 16);
  seen_rsp = 1; // not a multiple of 8: a proxy not entered shows
}

int main(int argc, char **argv) {
  (void)argv;
  for (struct dipc_entry_record *e = __start_dipc_entries; e < __stop_dipc_entries; ++e)
    callee_stub = ref(&e->callee_stub);
  for (struct dipc_import_record *i = __start_dipc_imports; i < __stop_dipc_imports; ++i)
    *(void **)ref(&i->slot) = (void *)recording_proxy;
  void *saved = callee_stub;
  callee_stub = (void *)nothing; // control: an ordinary call of the proxy
  ((void (*)(void))recording_proxy)();
  printf("control: rsp%%16=%ld\n", seen_rsp % 16);
  callee_stub = saved;
  report("leaf wrapper", leaf(argc));
  report("on one path", one_path(argc + 5));
  report("variable-sized local", with_vla(argc + 2, argc + 15));
  report("over-aligned local", with_overaligned(argc + 3));
  fflush(stdout);
  return 0;
}
