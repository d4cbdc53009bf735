// __entry has no arguments.
// RUN: %dipc-clang -fdipc -fsyntax-only -Xclang -verify %s
#include <dipc.h>

int query(int key) __attribute__((dipc_entry("db"))); // expected-error {{'__entry' takes no arguments}}
