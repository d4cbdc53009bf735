// Under -fdipc-sfi, C the checks cannot see is refused where it is written:
// inline asm and __seg_gs/__seg_fs accesses, in a named domain or the
// default one. A compiler barrier (asm with no instructions) is accepted.
// RUN: not %dipc-clang -fdipc -fdipc-sfi -O2 -c -o /dev/null %s 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -DBARRIER -c -o /dev/null %s
// RUN: %dipc-clang -fdipc -O2 -c -o /dev/null %s
#include <dipc.h>

#ifdef BARRIER
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
#endif
