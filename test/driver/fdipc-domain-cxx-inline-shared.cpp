// Under -fdipc-domain=lib, C++ linkonce definitions (inline functions and
// variables, template instances) stay shared default-domain code: other
// files have copies and the linker keeps one. The file's own functions and
// globals are lib's.
// RUN: %dipc-clangxx -fdipc -fdipc-domain=lib -O0 -std=c++17 -S -emit-llvm %s -o - | FileCheck %s
// CHECK-DAG: @counter = {{.*}}global i32 1, section "dipc_data_lib"
// CHECK-DAG: @shared_count = linkonce_odr {{.*}}global i32 0, comdat, align 4{{$}}
// CHECK-DAG: define linkonce_odr {{.*}} @_Z5twiceIiET_S0_({{.*}}) #{{[0-9]+}} comdat {
// CHECK-DAG: define linkonce_odr {{.*}} @_Z6squarei({{.*}}) #{{[0-9]+}} comdat {
// CHECK-DAG: define {{.*}} @_Z3useii({{.*}} section "dipc_text_lib"
#include <dipc.h>

int counter = 1;
inline int shared_count = 0;
inline int square(int x) { return x * x; }
template <typename T> T twice(T x) { return x + x; }

int use(int a, int b) { return square(a) + twice(b) + counter + shared_count++; }
