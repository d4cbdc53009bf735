// Under full LTO the checks survive link-time inlining: load() is inlined
// into main() by lld and its check comes along (the page-crossing test
// folds away on the aligned global). Both units keep their SFI note.
// RUN: %dipc-clang -fdipc -fdipc-sfi -flto -O2 -DHELPER -c %s -o %t.helper.o
// RUN: %dipc-clang -fdipc -fdipc-sfi -flto -O2 %s %t.helper.o -o %t -Wl,--unresolved-symbols=ignore-all
// RUN: llvm-objdump -d --no-show-raw-insn %t | FileCheck %s
// RUN: llvm-readelf --notes %t | FileCheck %s --check-prefix=NOTE
// CHECK-LABEL: <main>:
// CHECK-NEXT: movl %gs:0x28, %e[[DOM:[a-z]+]]
// CHECK: movzwl
// CHECK-NEXT: testb $0x1, 0x78000000(%r[[DOM]],%r{{[a-z]+}})
// CHECK-NEXT: je
// CHECK-NEXT: movl {{.*}} <g>
// CHECK: callq {{.*}} <__dipc_sfi_check@plt>
// NOTE-COUNT-2: dipc 0x00000004 NT_ARCH
#ifdef HELPER
int load(int *p) { return *p; }
#else
int load(int *p);
int g = 3;
int main(void) { return load(&g); }
#endif
