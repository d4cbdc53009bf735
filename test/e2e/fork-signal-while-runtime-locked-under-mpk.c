// fork-signal-while-runtime-locked-no-hang.c under the mpk backend, where
// a signal landing on a stack of the runtime's key (a thread making its
// state before it had its alternate signal stack: here the watchdog) made
// the handler fault on its first push, the crash handler's frames then
// running down through the runtime's memory: a silent SIGSEGV about one
// run in six, or a fork child crashing on the thread states it inherited.
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 %S/fork-signal-while-runtime-locked-no-hang.c -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=mpk %t 2000 2>&1 | FileCheck %S/fork-signal-while-runtime-locked-no-hang.c
