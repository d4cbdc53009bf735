// Under -fdipc-sfi, C the checks cannot see is refused where it is written:
// inline asm (a naked function's too) and __seg_gs/__seg_fs accesses, in a
// named domain or the default one, top-level asm (code outside any
// function), a function placed in a data section and data placed in an
// executable one. A compiler barrier (asm with no instructions) is
// accepted.
// RUN: not %dipc-clang -fdipc -fdipc-sfi -O2 -c -o /dev/null %s 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -DBARRIER -c -o /dev/null %s
// RUN: %dipc-clang -fdipc -O2 -c -o /dev/null %s
// RUN: not %dipc-clang -fdipc -fdipc-sfi -O2 -DTOPLEVEL -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=TOPLEVEL
// RUN: %dipc-clang -fdipc -O2 -DTOPLEVEL -c -o /dev/null %s
#include <dipc.h>

#if defined(TOPLEVEL)
// TOPLEVEL: error: dipc: -fdipc-sfi cannot check top-level asm of module '{{.*}}clang-sfi-refused.c': its code would run unchecked
__asm__(".globl raw_read\nraw_read: movq (%rdi), %rax\n ret");
#elif defined(BARRIER)
void barrier(void) { __asm__ volatile("" ::: "memory"); }
#else
// CHECK-DAG: clang-sfi-refused.c:[[@LINE+1]]:{{[0-9]+}}: error: dipc: -fdipc-sfi cannot check 'peek': it contains inline assembly, whose memory accesses cannot be checked
long peek(long *p) __dom("db") {
  long v;
  __asm__ volatile("movq (%1), %0" : "=r"(v) : "r"(p));
  return v;
}

// CHECK-DAG: clang-sfi-refused.c:[[@LINE+1]]:{{[0-9]+}}: error: dipc: -fdipc-sfi cannot check 'gs_read': it accesses memory through address space 256 (a __seg_gs or __seg_fs pointer)
unsigned gs_read(void) {
  return *(unsigned __seg_gs *)40;
}

// CHECK-DAG: error: dipc: -fdipc-sfi cannot check 'fs_write': it accesses memory through address space 257
void fs_write(long v) { *(long __seg_fs *)0 = v; }

// CHECK-DAG: clang-sfi-refused.c:[[@LINE+1]]:{{[0-9]+}}: error: dipc: -fdipc-sfi cannot check 'poke': a naked function's inline assembly would run unchecked
__attribute__((naked)) void poke(long *p, long v) {
  __asm__("movq %rsi, (%rdi)\n\tret");
}

// CHECK-DAG: clang-sfi-refused.c:[[@LINE+1]]:{{[0-9]+}}: error: dipc: -fdipc-sfi cannot check 'in_data': it is placed in section '.data.fn', not a code section
__attribute__((section(".data.fn"))) int in_data(int x) { return x + 1; }

// CHECK-DAG: error: dipc: -fdipc-sfi cannot check 'raw_code': data placed in section '.text.raw' would be executable
__attribute__((section(".text.raw"), used)) const unsigned char raw_code[] = {
    0x48, 0x89, 0x37, 0xc3};
#endif
