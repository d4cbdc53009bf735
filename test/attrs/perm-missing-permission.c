// __perm needs both a domain and a permission.
// RUN: %dipc-clang -fdipc -fsyntax-only -Xclang -verify %s
#include <dipc.h>

int a(void) __attribute__((dipc_perm("db"))); // expected-error {{'__perm' needs a domain and a permission, e.g. __perm("db", read)}}
int b(void) __attribute__((dipc_perm("db", "read", "write"))); // expected-error {{'__perm' takes a domain and a permission}}
