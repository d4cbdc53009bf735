// A domain's import slots are in its own data pages: domain mid, spread
// over two objects that both call leaf, shares one slot for it (the weak
// copies merge: both import records name the same symbol); domain side
// calling the same entry has a slot of its own. Neither has any permission
// on the default domain, yet their calls work, with and without LTO and
// --gc-sections, under mpk and under sfi (the same builds with -fdipc-sfi).
// Control: mid really has no access to the default domain (reading a
// default-domain global faults under mpk and under sfi, the call failing
// with DIPC_EFAULT; not with `none`, mpk and sfi builds alike).
// RUN: %dipc-clang -fdipc -O2 %s %S/Inputs/domain-slots-other.c -o %t
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s %S/Inputs/domain-slots-other.c -o %t.sfi
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s --check-prefixes=CHECK,NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>&1 | FileCheck %s --check-prefixes=CHECK,NONE
// RUN: %dipc-readelf %t | FileCheck %s --check-prefix=RECORDS
// RUN: llvm-objdump -t %t | FileCheck %s --check-prefix=SYMBOLS
// RUN: llvm-objdump -t %t | grep -c '__dipc_slot.mid.00.leaf_inc$' | FileCheck %s --check-prefix=ONE
// RUN: %dipc-clang -fdipc -O2 -flto %s %S/Inputs/domain-slots-other.c -o %t.lto
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -flto %s %S/Inputs/domain-slots-other.c -o %t.sfi.lto
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t.lto 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi.lto 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi.lto 2>&1 | FileCheck %s --check-prefixes=CHECK,NONE
// RUN: llvm-objdump -t %t.lto | FileCheck %s --check-prefix=SYMBOLS
// RUN: %dipc-clang -fdipc -O0 -ffunction-sections -fdata-sections -Wl,--gc-sections %s %S/Inputs/domain-slots-other.c -o %t.gc
// RUN: %dipc-clang -fdipc -fdipc-sfi -O0 -ffunction-sections -fdata-sections -Wl,--gc-sections %s %S/Inputs/domain-slots-other.c -o %t.sfi.gc
// RUN: %if pku %{ %dipc-bin-dir/dipc-run %t.gc 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK %}
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi.gc 2>&1 | FileCheck %s --check-prefixes=CHECK,MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi.gc 2>&1 | FileCheck %s --check-prefixes=CHECK,NONE
// RUN: llvm-objdump -t %t.gc | FileCheck %s --check-prefix=SYMBOLS
// CHECK: mid_a 20, mid_b 300, side 1004, errno 0
// MPK-NEXT: mid_peek 0, errno 14
// NONE-NEXT: mid_peek 77, errno 0
// RECORDS-NOT: grant
// RECORDS: data dipc_data_mid
// RECORDS: data dipc_data_side
// RECORDS-NOT: grant
// RECORDS-DAG: import leaf_inc from=side to=leaf slot=__dipc_slot.side.00.leaf_inc
// RECORDS-DAG: import leaf_inc from=mid to=leaf slot=__dipc_slot.mid.00.leaf_inc
// RECORDS-DAG: import leaf_inc from=mid to=leaf slot=__dipc_slot.mid.00.leaf_inc
// SYMBOLS-DAG: dipc_data_mid {{.*}} __dipc_slot.mid.00.leaf_inc
// SYMBOLS-DAG: dipc_data_side {{.*}} __dipc_slot.side.00.leaf_inc
// SYMBOLS-DAG: dipc_slots {{.*}} __dipc_slot.default.00.mid_a
// ONE: {{^1$}}
#include <dipc.h>
#include <stdio.h>

long leaf_inc(long v) __dom("leaf") __entry;
long mid_b(long v) __dom("mid") __entry;
long mid_peek(const long *p) __dom("mid") __entry;

long mid_a(long v) __dom("mid") __entry { return leaf_inc(v) * 10; }
long side(long v) __dom("side") __entry { return leaf_inc(v) + 1000; }

static long in_default = 77;

int main(void) {
  long a = mid_a(1), b = mid_b(2), s = side(3);
  printf("mid_a %ld, mid_b %ld, side %ld, errno %d\n", a, b, s, dipc_errno);
  long peek = mid_peek(&in_default);
  printf("mid_peek %ld, errno %d\n", peek, dipc_errno);
  return 0;
}
