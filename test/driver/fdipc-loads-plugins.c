// -fdipc hands clang both plugins, the recovery style and the include path.
// RUN: %dipc-clang -fdipc -c %s -o %t.o -### 2>&1 | FileCheck %s
// CHECK: "-cc1"
// CHECK-SAME: "-D" "__DIPC__=1"
// CHECK-SAME: "-load" "{{[^"]*}}/DipcAttrs.so" "-load" "{{[^"]*}}/DipcPass.so"
// CHECK-SAME: "-fpass-plugin={{[^"]*}}/DipcPass.so"
// CHECK-SAME: "-mllvm" "-dipc-recovery=setjmp"
int main(void) { return 0; }
