// A unit compiled with -fdipc -fdipc-sfi marks its records note: n_type
// DIPC_NOTE_TYPE_RECORDS_SFI (3) instead of DIPC_NOTE_TYPE_RECORDS (1),
// same descriptor; a unit without records (this unit's helper, compiled
// alone) has no records note. Its calls note (owner dipcsfi) names
// `twice`, the other unit's function main calls ("twice\0", padded): the
// loader checks that no such name is an unchecked C library function's.
// The notes land in the PT_NOTE segment (read here with the section
// headers stripped, as a loader sees it).
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -DHELPER -c %s -o %t.helper.o
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s %t.helper.o -o %t
// RUN: llvm-objcopy --strip-sections %t %t.stripped
// RUN: llvm-readelf --notes %t.stripped | FileCheck %s
// RUN: %dipc-clang -fdipc -O2 -DHELPER -c %s -o %t.helper.plain.o
// RUN: %dipc-clang -fdipc -O2 %s %t.helper.plain.o -o %t.plain
// RUN: llvm-objcopy --strip-sections %t.plain %t.plain.stripped
// RUN: llvm-readelf --notes %t.plain.stripped | FileCheck %s --check-prefix=PLAIN
// CHECK: dipc 0x00000020 Unknown note type: (0x00000003)
// CHECK: dipcsfi 0x00000008
// CHECK-NEXT: description data: 74 77 69 63 65 00 00 00
// CHECK-NOT: dipc
// PLAIN: dipc 0x00000020 NT_VERSION
// PLAIN-NOT: dipc
#include <dipc.h>

#ifdef HELPER
int twice(int x) { return 2 * x; }
#else
int twice(int);
int secret __dom("db") = 7;
int __entry reveal(void) __dom("db") { return secret; }
int main(void) { return twice(reveal()) == 14 ? 0 : 1; }
#endif
