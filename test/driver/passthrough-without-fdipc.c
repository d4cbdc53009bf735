// Without -fdipc, arguments reach clang unchanged and no plugin is loaded.
// RUN: %dipc-clang -O2 -DGREETING=7 -c %s -o %t.o -### 2>&1 | FileCheck %s
// CHECK: "-cc1"
// CHECK-SAME: "-D" "GREETING=7"
// CHECK-SAME: "-O2"
// CHECK-NOT: DipcAttrs.so
// CHECK-NOT: DipcPass.so
// CHECK-NOT: __DIPC__
int main(void) { return GREETING; }
