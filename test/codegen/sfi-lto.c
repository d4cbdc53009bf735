// Under full LTO the checks survive link-time inlining: load() is inlined
// into main() by lld and its check comes along (the page-crossing test
// folds away on the aligned global). The unit with records keeps its
// note, marked as instrumented (type 3), one only (the calls note,
// owner dipcsfi, is another). (main's shadow-stack push, put
// in at compile time when it still called load(), comes first.)
// RUN: %dipc-clang -fdipc -fdipc-sfi -flto -O2 -DHELPER -c %s -o %t.helper.o
// RUN: %dipc-clang -fdipc -fdipc-sfi -flto -O2 %s %t.helper.o -o %t -Wl,--unresolved-symbols=ignore-all
// RUN: llvm-objdump -d --no-show-raw-insn %t | FileCheck %s
// RUN: llvm-readelf --notes %t | FileCheck %s --check-prefix=NOTE
// CHECK-LABEL: <main>:
// CHECK: movl %gs:0x28, %e[[DOM:[a-z]+]]
// CHECK: movzwl
// CHECK-NEXT: testb $0x1, 0x78000000(%r[[DOM]],%r{{[a-z]+}})
// CHECK-NEXT: je
// CHECK-NEXT: movl {{.*}} <g>
// CHECK: callq {{.*}} <__dipc_sfi_check@plt>
// NOTE: dipc 0x00000020 Unknown note type: (0x00000003)
// NOTE-NOT: {{^ *dipc +0x}}
#include <dipc.h>

#ifdef HELPER
int load(int *p) { return *p; }
#else
int load(int *p);
int g = 3;
int kept __dom("db") = 7; /* records, hence the note */
int main(void) { return load(&g); }
#endif
