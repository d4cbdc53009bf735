// The unsafe stack pointer stays balanced when frames with escaping locals
// are left without their epilogues: a C++ exception thrown through ten of
// them (the catching function's landing pad puts its own top back), a
// longjmp out of ten of them (so does the return from setjmp), and a
// callee domain that crashes ten such frames deep (fault recovery puts
// back the caller's pointer from the KCS entry, with either recovery
// style). Each function's later escaping locals then sit where they
// should, and main ends with the pointer it started with.
// RUN: %dipc-clangxx -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s
// RUN: %dipc-clangxx -fdipc -O0 %s -o %t.o0
// RUN: %dipc-bin-dir/dipc-run %t.o0 2>&1 | FileCheck %s
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=try -O2 %s -o %t.try
// RUN: %dipc-bin-dir/dipc-run %t.try 2>&1 | FileCheck %s
// CHECK: exception: balanced
// CHECK-NEXT: longjmp: balanced
// CHECK-NEXT: callee crash: 0, dipc_errno 14, balanced
// CHECK-NEXT: main: balanced
#include <dipc.h>

#include <csetjmp>
#include <cstdio>

static long unsafe_stack_pointer() {
  long v;
  __asm__ volatile("movq %%gs:%c1, %0" : "=r"(v) : "i"(DIPC_USP_GS_OFFSET));
  return v;
}

/* Makes a local escape: it goes to the unsafe stack. */
#define ESCAPE(p) __asm__ volatile("" : : "r"(p) : "memory")

static std::jmp_buf env;

__attribute__((noinline)) static void deep_jump(int n) {
  char b[100];
  ESCAPE(b);
  if (n == 0)
    std::longjmp(env, 1);
  deep_jump(n - 1);
  ESCAPE(b);
}

__attribute__((noinline)) static void deep_throw(int n) {
  char b[100];
  ESCAPE(b);
  if (n == 0)
    throw 42;
  deep_throw(n - 1);
  ESCAPE(b);
}

__attribute__((noinline)) static bool catcher() {
  char mine[64];
  ESCAPE(mine);
  long before = unsafe_stack_pointer();
  try {
    deep_throw(10);
  } catch (int) {
  }
  return unsafe_stack_pointer() == before;
}

__attribute__((noinline)) static bool jumper() {
  char mine[64];
  ESCAPE(mine);
  long before = unsafe_stack_pointer();
  if (!setjmp(env))
    deep_jump(10);
  return unsafe_stack_pointer() == before;
}

__attribute__((noinline)) static long crash_deep(int n) __dom("crashy") {
  char b[64];
  ESCAPE(b);
  if (n == 0)
    return *(volatile long *)nullptr;
  long r = crash_deep(n - 1);
  ESCAPE(b);
  return r;
}

long crashy(int n) __dom("crashy") __entry { return crash_deep(n); }

__attribute__((noinline)) static bool call_crashy() {
  char mine[64];
  ESCAPE(mine);
  long before = unsafe_stack_pointer();
  long r = crashy(10);
  int err = dipc_errno;
  std::printf("callee crash: %ld, dipc_errno %d, ", r, err);
  return unsafe_stack_pointer() == before;
}

int main() {
  long start = unsafe_stack_pointer();
  std::printf("exception: %s\n", catcher() ? "balanced" : "UNBALANCED");
  std::printf("longjmp: %s\n", jumper() ? "balanced" : "UNBALANCED");
  std::printf("%s\n", call_crashy() ? "balanced" : "UNBALANCED");
  std::printf("main: %s\n",
              unsafe_stack_pointer() == start ? "balanced" : "UNBALANCED");
  return 0;
}
