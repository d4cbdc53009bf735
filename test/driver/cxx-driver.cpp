// dipc-clang++ compiles and links C++ with the same options.
// RUN: %dipc-clangxx -fdipc %s -o %t && %dipc-bin-dir/dipc-run %t | FileCheck %s
// CHECK: lookup=3
#include <dipc.h>
#include <cstdio>
[[dipc::dom("db")]] static int lookup(int key) { return key + 1; }
int main() { std::printf("lookup=%d\n", lookup(2)); }
