// `#pragma clang attribute` applies __dom to every function and global
// declared in its range (e.g. an included library): static ones too, not
// static locals (they follow their function); a declaration's own __dom
// wins. __entry via the pragma marks functions only.
// RUN: %dipc-clang -fdipc -O0 -S -emit-llvm %s -o - | FileCheck %s
// RUN: not %dipc-clang -fdipc -O0 -S -emit-llvm -DBAD_NAME %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
#include <dipc.h>

#pragma clang attribute push(__attribute__((dipc_dom("lib"))), apply_to = any(function, variable(is_global)))
int counter = 1;
static int hidden = 2;
static int helper(int x) {
  static int n;
  return x + hidden + n++;
}
__dom("other") int elsewhere = 3;
int lib_add(int x);
#pragma clang attribute pop

#pragma clang attribute push(__attribute__((dipc_entry)), apply_to = function)
int lib_add(int x) { return helper(x) + counter; }
#pragma clang attribute pop

int outside;

#ifdef BAD_NAME
#pragma clang attribute push(__attribute__((dipc_dom("no-good"))), apply_to = function)
int bad(void);
#pragma clang attribute pop
#endif

// CHECK-DAG: [[LIB:@.*]] = {{.*}} c"dipc.dom:lib\00", section "llvm.metadata"
// CHECK-DAG: [[OTHER:@.*]] = {{.*}} c"dipc.dom:other\00", section "llvm.metadata"
// CHECK-DAG: [[ENTRY:@.*]] = {{.*}} c"dipc.entry\00", section "llvm.metadata"
// CHECK-DAG: { ptr @counter, ptr [[LIB]],
// CHECK-DAG: { ptr @hidden, ptr [[LIB]],
// CHECK-DAG: { ptr @helper, ptr [[LIB]],
// CHECK-DAG: { ptr @elsewhere, ptr [[OTHER]],
// CHECK-DAG: { ptr @lib_add, ptr [[LIB]],
// CHECK-DAG: { ptr @lib_add, ptr [[ENTRY]],
// CHECK-DAG: @helper.n = internal global i32 0, align 4 #[[BSS:[0-9]+]]
// CHECK-DAG: attributes #[[BSS]] = { "bss-section"="dipc_bss_lib" }
// CHECK-DAG: @outside = {{.*}}global i32 0, align 4
// CHECK-DAG: define {{.*}} @lib_add({{.*}} section "dipc_text_lib"
// CHECK-NOT: { ptr @elsewhere, ptr [[LIB]],
// CHECK-NOT: { ptr @outside,
// BAD: error: domain name 'no-good' is not a C identifier
