// -fdipc-sfi reaches the pass plugin as -dipc-sfi (only with -fdipc), and
// its checks are in the code; alone it does nothing, and says so.
// RUN: %dipc-clang -fdipc -fdipc-sfi -c %s -o %t.o -### 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: %dipc-clang -fdipc -c %s -o %t.o -### 2>&1 | FileCheck %s --check-prefix=NOFLAG
// RUN: %dipc-clang -fdipc -fdipc-sfi -fno-dipc-sfi -c %s -o %t.o -### 2>&1 | FileCheck %s --check-prefix=NOFLAG
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -c %s -o %t.o
// RUN: llvm-objdump -d -r %t.o | FileCheck %s --check-prefix=CHECKED
// RUN: %dipc-clang -fdipc-sfi -c %s -o %t.plain.o 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: llvm-objdump -d -r %t.plain.o | FileCheck %s --check-prefix=UNCHECKED
// FLAG: "-mllvm" "-dipc-sfi"
// NOFLAG-NOT: "-dipc-sfi"
// CHECKED: R_X86_64_PLT32 __dipc_sfi_check
// WARN: dipc-clang: warning: -fdipc-sfi has no effect without -fdipc
// UNCHECKED-NOT: __dipc_sfi_check
int load(int *p) { return *p; }
