// The stack-argument tests (stack-arguments-setjmp.c, -try.c) under the mpk
// backend, where the callee runs on its own domain's stack with its keys:
// the proxy's copy of the argument area is what the callee reads. The
// same programs built with -fdipc-sfi run under sfi, where the callee's
// accesses are checked: the same output (the callee that faults after
// reading its stack arguments returns 0 with DIPC_EFAULT there too).
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 -x c %S/Inputs/stack-arguments.inc -o %t.sj0
// RUN: %if pku %{ %dipc-bin-dir/dipc-run --backend=mpk %t.sj0 2>&1 | FileCheck %S/stack-arguments-setjmp.c %}
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O2 -x c %S/Inputs/stack-arguments.inc -o %t.sj2
// RUN: %if pku %{ %dipc-bin-dir/dipc-run --backend=mpk %t.sj2 2>&1 | FileCheck %S/stack-arguments-setjmp.c %}
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O1 -x c %S/Inputs/stack-arguments.inc -o %t.try1
// RUN: %if pku %{ %dipc-bin-dir/dipc-run --backend=mpk %t.try1 2>&1 | FileCheck %S/stack-arguments-try.c %}
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O3 -x c %S/Inputs/stack-arguments.inc -o %t.try3
// RUN: %if pku %{ %dipc-bin-dir/dipc-run --backend=mpk %t.try3 2>&1 | FileCheck %S/stack-arguments-try.c %}
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 -fdipc-sfi -x c %S/Inputs/stack-arguments.inc -o %t.sj0.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sj0.sfi 2>&1 | FileCheck %S/stack-arguments-setjmp.c
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O2 -fdipc-sfi -x c %S/Inputs/stack-arguments.inc -o %t.sj2.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sj2.sfi 2>&1 | FileCheck %S/stack-arguments-setjmp.c
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O1 -fdipc-sfi -x c %S/Inputs/stack-arguments.inc -o %t.try1.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.try1.sfi 2>&1 | FileCheck %S/stack-arguments-try.c
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O3 -fdipc-sfi -x c %S/Inputs/stack-arguments.inc -o %t.try3.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.try3.sfi 2>&1 | FileCheck %S/stack-arguments-try.c
