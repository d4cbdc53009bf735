// Every unit compiled with -fdipc -fdipc-sfi carries a second dIPC note,
// n_type DIPC_NOTE_TYPE_SFI (2), descriptor DIPC_SFI_VERSION (1), with
// records (main.c) or without (this unit's helper, compiled alone); both
// land in the PT_NOTE segment (read here with the section headers
// stripped, as a loader sees it). libdipc does not export
// __dipc_sfi_check yet, hence the unresolved-symbols option.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -DHELPER -c %s -o %t.helper.o
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s %t.helper.o -o %t -Wl,--unresolved-symbols=ignore-all
// RUN: llvm-objcopy --strip-sections %t %t.stripped
// RUN: llvm-readelf --notes %t.stripped | FileCheck %s
// RUN: %dipc-clang -fdipc -O2 -DHELPER -c %s -o %t.helper.plain.o
// RUN: %dipc-clang -fdipc -O2 %s %t.helper.plain.o -o %t.plain
// RUN: llvm-objcopy --strip-sections %t.plain %t.plain.stripped
// RUN: llvm-readelf --notes %t.plain.stripped | FileCheck %s --check-prefix=PLAIN
// (llvm-readelf names type 2 after the core-file note NT_ARCH.)
// CHECK: dipc 0x00000020 NT_VERSION
// CHECK: dipc 0x00000004 NT_ARCH (architecture)
// CHECK-NEXT: description data: 01 00 00 00
// CHECK-NEXT: dipc 0x00000004 NT_ARCH (architecture)
// CHECK-NEXT: description data: 01 00 00 00
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
