// Linking with -fdipc uses lld and the dIPC runtime.
// RUN: %dipc-clang -fdipc %s -o %t
// RUN: llvm-readelf --string-dump=.comment %t | FileCheck %s --check-prefix=LLD
// RUN: llvm-readelf --dynamic %t | FileCheck %s --check-prefix=NEEDED
// RUN: %t
// LLD: Linker: {{.*}}LLD 19
// NEEDED: (NEEDED) Shared library: [libdipc.so]
#include <dipc.h>
int main(void) { return dipc_errno; }
