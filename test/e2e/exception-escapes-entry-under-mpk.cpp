// The escaping-exception tests (exception-escapes-entry-setjmp.cpp, -try.cpp,
// -c-caller.c) under the mpk backend: the callee, which may write the
// default domain (__perm("default", write)), throws with its own keys; the
// call still fails with DIPC_EEXCEPTION, nothing reaches the caller's catch
// and nothing leaks. The same programs built with -fdipc-sfi give the same
// output under sfi (the loader warns that libstdc++ is not instrumented).
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=setjmp -O2 -x c++ %S/Inputs/exception-escapes-entry.inc -o %t.sj2
// RUN: %if pku %{ %dipc-bin-dir/dipc-run --backend=mpk %t.sj2 2>&1 | FileCheck %S/exception-escapes-entry-setjmp.cpp %}
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=try -O0 -x c++ %S/Inputs/exception-escapes-entry.inc -o %t.try0
// RUN: %if pku %{ %dipc-bin-dir/dipc-run --backend=mpk %t.try0 2>&1 | FileCheck %S/exception-escapes-entry-try.cpp %}
// RUN: %dipc-clangxx -fdipc -O2 -c %S/Inputs/exception-callee.cpp -o %t.callee.o
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O1 -c %S/exception-escapes-entry-c-caller.c -o %t.c.o
// RUN: %dipc-clangxx -fdipc %t.c.o %t.callee.o -o %t.c
// RUN: %if pku %{ %dipc-bin-dir/dipc-run --backend=mpk %t.c 2>&1 | FileCheck %S/exception-escapes-entry-c-caller.c %}
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=setjmp -O2 -fdipc-sfi -x c++ %S/Inputs/exception-escapes-entry.inc -o %t.sj2.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sj2.sfi 2>&1 | FileCheck %S/exception-escapes-entry-setjmp.cpp
// RUN: %dipc-clangxx -fdipc -fdipc-recovery=try -O0 -fdipc-sfi -x c++ %S/Inputs/exception-escapes-entry.inc -o %t.try0.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.try0.sfi 2>&1 | FileCheck %S/exception-escapes-entry-try.cpp
// RUN: %dipc-clangxx -fdipc -O2 -fdipc-sfi -c %S/Inputs/exception-callee.cpp -o %t.callee.sfi.o
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O1 -fdipc-sfi -c %S/exception-escapes-entry-c-caller.c -o %t.c.sfi.o
// RUN: %dipc-clangxx -fdipc -fdipc-sfi %t.c.sfi.o %t.callee.sfi.o -o %t.c.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.c.sfi 2>&1 | FileCheck %S/exception-escapes-entry-c-caller.c
