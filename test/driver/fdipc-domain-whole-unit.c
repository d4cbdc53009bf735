// -fdipc-domain=lib puts every definition of the file in domain lib:
// functions and globals, static ones and static locals included; a
// declaration's own __dom wins; only __entry functions are entries.
// RUN: %dipc-clang -fdipc -fdipc-domain=lib -O0 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-domain=lib -O2 -shared -fPIC %s -o %t.so
// RUN: %dipc-readelf %t.so | FileCheck %s --check-prefix=RECORDS
// Without the option, the same file has only domain other.
// RUN: %dipc-clang -fdipc -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NONE
#include <dipc.h>

// CHECK-DAG: @counter = {{.*}} section "dipc_data_lib"
// CHECK-DAG: @hidden = internal global {{.*}} section "dipc_data_lib"
// CHECK-DAG: @table = {{.*}}constant {{.*}} section "dipc_rodata_lib"
// CHECK-DAG: @lib_add.calls = internal global i32 0, align 4 #[[BSS:[0-9]+]]
// CHECK-DAG: attributes #[[BSS]] = { "bss-section"="dipc_bss_lib" }
// CHECK-DAG: @elsewhere = {{.*}} section "dipc_data_other"
// CHECK-DAG: define {{.*}} @lib_add({{.*}} section "dipc_text_lib"
// CHECK-DAG: define internal {{.*}} @helper({{.*}} section "dipc_text_lib"
// CHECK-DAG: define {{.*}} @not_an_entry({{.*}} section "dipc_text_lib"
// CHECK-DAG: define {{.*}} @other_fn({{.*}} section "dipc_text_other"
// main and constructors stay in the default domain, which runs them.
// CHECK-DAG: define {{.*}} @main() #{{[0-9]+}} {
// CHECK-DAG: define internal void @setup() #{{[0-9]+}} {
// CHECK-DAG: @__dipc_entry.lib_add =
// CHECK-NOT: @__dipc_entry.not_an_entry
// CHECK-NOT: @__dipc_entry.helper
// NONE-NOT: dipc_text_lib
// NONE-NOT: dipc_data_lib
// RECORDS: domain lib
// RECORDS-NEXT: text dipc_text_lib
// RECORDS-NEXT: rodata dipc_rodata_lib
// RECORDS-NEXT: data dipc_data_lib
// RECORDS-NEXT: bss dipc_bss_lib
// RECORDS-NEXT: heap own (run-time region, dom_heap)
// RECORDS-NEXT: domain other
// RECORDS-NOT: entry not_an_entry
// RECORDS: entry lib_add domain=lib
// RECORDS-NOT: entry
int counter = 1;
static int hidden = 2;
const int table[4] = {1, 2, 3, 4};
__dom("other") int elsewhere = 3;
static int helper(int x) { return x + hidden + table[x & 3]; }
int not_an_entry(int x) { return helper(x); }
__dom("other") int other_fn(void) { return elsewhere; }
__attribute__((constructor)) static void setup(void) { }
int main(void) { return 0; }
__entry int lib_add(int x) {
  static int calls;
  calls++;
  counter += not_an_entry(x);
  return counter + calls;
}
