// The anycall table (stub address -> proxy, docs/abi.md §4) is read by every
// domain and written by none: a domain that could write it could make a
// callback another domain holds run an entry of the attacker's choosing.
// evil finds victim_a's and victim_b's stubs in the table (it may read it)
// and stores b's proxy in a's slot: through the table's own read-only
// mapping (faults with any backend), then through the runtime's writable
// alias (runtime key). Under mpk both faults return 0 with DIPC_EFAULT and
// a's pointer still calls a. Under sfi (-fdipc-sfi) the same: the
// read-only mapping faults on its page protection, and the check refuses
// the alias, tagged runtime memory, to every domain. Negative
// control: with --backend=none (either binary) the write through the
// alias lands and a's pointer calls b.
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefixes=CHECK,SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefixes=CHECK,NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefixes=CHECK,NONE
// CHECK: before: a's pointer gives 2
// CHECK-NEXT: write through the read-only table: 0 errno 14; a's pointer gives 2
// MPK-NEXT: write through the runtime's alias: 0 errno 14; a's pointer gives 2
// SFI-NEXT: write through the runtime's alias: 0 errno 14; a's pointer gives 2
// NONE-NEXT: write through the runtime's alias: 1 errno 0; a's pointer gives 1001
#include <dipc.h>
#include <stdio.h>

#define TABLE_RO 0x7ff02000UL /* rt/layout.h RT_ANYCALL_ADDR */
#define TABLE_RW 0x7ff14000UL /* RT_RW_TABLE_ADDR + 8 KiB: its alias */
#define SLOTS 4096            /* RT_ANYCALL_SLOTS */

long victim_a(long x) __dom("victim") __entry { return x + 1; }
long victim_b(long x) __dom("victim") __entry { return x + 1000; }

// Makes stub a lead to stub b's proxy, writing through `table`.
long evil_redirect(void *a, void *b, unsigned long table) __dom("evil")
    __entry {
  const volatile unsigned long *ro = (const volatile unsigned long *)TABLE_RO;
  volatile unsigned long *t = (volatile unsigned long *)table;
  long ia = -1, ib = -1;
  for (long i = 0; i < SLOTS; i++) {
    if (ro[2 * i] == (unsigned long)a)
      ia = i;
    if (ro[2 * i] == (unsigned long)b)
      ib = i;
  }
  if (ia < 0 || ib < 0)
    return -1;
  t[2 * ia + 1] = ro[2 * ib + 1];
  return 1;
}

int main(void) {
  long (*volatile a)(long) = victim_a;
  long (*volatile b)(long) = victim_b;
  printf("before: a's pointer gives %ld\n", a(1));
  long r = evil_redirect((void *)a, (void *)b, TABLE_RO);
  int err = dipc_errno;
  printf("write through the read-only table: %ld errno %d; a's pointer gives "
         "%ld\n",
         r, err, a(1));
  r = evil_redirect((void *)a, (void *)b, TABLE_RW);
  err = dipc_errno;
  printf("write through the runtime's alias: %ld errno %d; a's pointer gives "
         "%ld\n",
         r, err, a(1));
  return 0;
}
