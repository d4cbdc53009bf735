// -fdipc-recovery=try|setjmp reaches the pass plugin.
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -c %s -o %t.o -### 2>&1 | FileCheck %s --check-prefix=TRY
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -c %s -o %t.o -### 2>&1 | FileCheck %s --check-prefix=SETJMP
// TRY: "-dipc-recovery=try"
// SETJMP: "-dipc-recovery=setjmp"
int main(void) { return 0; }
