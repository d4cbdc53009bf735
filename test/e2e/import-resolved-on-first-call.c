// Imports are resolved lazily (paper §6.2.1): until its first call, an
// import's slot holds a guard address of the runtime's; the first call
// faults there, the runtime requests the proxy (step A) and patches the
// slot (step B), and the call goes on with its arguments intact; later
// calls go through the patched slot. An import of an entry that no loaded
// object defines costs nothing until it is called: its first call stops
// the process with status 78, naming it, after what was printed so far.
// RUN: %clang -O2 -DSLOT_READER -c %s -o %t.reader.o
// RUN: %dipc-clang -fdipc -O2 %s %t.reader.o -o %t
// RUN: %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s
// RUN: sh -c '"$0" "$1" ghost; echo "status $?"' %dipc-bin-dir/dipc-run %t > %t.out 2>&1; FileCheck %s --check-prefix=GHOST < %t.out
// CHECK: slot before: guard
// CHECK-NEXT: sum 21
// CHECK-NEXT: slot after first call: patched
// CHECK-NEXT: sum 6
// CHECK-NEXT: slot after second call: unchanged
// GHOST: sum 6
// GHOST: dipc: cannot resolve entry 'ghost' of domain 'nowhere' called from domain 'default': no loaded object defines it
// GHOST-NOT: ghost returned
// GHOST: status 78
#ifdef SLOT_READER
// The slot the pass made for main's calls to sum (another translation unit:
// in the caller's own, the name belongs to the pass).
extern void *sum_slot __asm__("__dipc_slot.default.00.sum");
void *read_sum_slot(void);
void *read_sum_slot(void) { return *(void *volatile *)&sum_slot; }
#else
#include <dipc.h>
#include <stdio.h>
#include <string.h>

// Six integer arguments and two doubles: every argument register must
// survive the detour through the runtime.
long sum(long a, long b, long c, long d, long e, long f, double x,
         double y) __dom("db") __entry {
  return a + b + c + d + e + f + (long)x + (long)y;
}
long ghost(long v) __dom("nowhere") __entry; // defined nowhere

void *read_sum_slot(void);

int main(int argc, char **argv) {
  void *before = read_sum_slot();
  printf("slot before: %s\n", before ? "guard" : "empty");
  printf("sum %ld\n", sum(1, 2, 3, 4, 5, 0, 2.5, 4.5));
  void *after = read_sum_slot();
  printf("slot after first call: %s\n",
         after != before ? "patched" : "unpatched");
  printf("sum %ld\n", sum(1, 1, 1, 1, 1, 1, 0.0, 0.0));
  printf("slot after second call: %s\n",
         read_sum_slot() == after ? "unchanged" : "changed");
  if (argc > 1 && strcmp(argv[1], "ghost") == 0)
    printf("ghost returned %ld\n", ghost(1));
  return 0;
}
#endif
