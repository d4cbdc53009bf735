// __perm grants call, read or write; nothing else (owner is not grantable).
// RUN: %dipc-clang -fdipc -fsyntax-only -Xclang -verify %s
#include <dipc.h>

int a(void) __perm("db", exec); // expected-error {{unknown permission 'exec' in '__perm'; expected call, read or write}}
int b(void) __perm("db", owner); // expected-error {{unknown permission 'owner' in '__perm'; expected call, read or write}}
int c(void) __perm("db", "read");
int d(void) __perm("db", write);
