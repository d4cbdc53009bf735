// Legal but useless: a domain granting itself access.
// RUN: %dipc-clang -fdipc -fsyntax-only -Xclang -verify %s
#include <dipc.h>

int a(void) __dom("db") __perm("db", read); // expected-warning {{'__perm' grants domain 'db' access to itself; this has no effect}}
int b(void) __dom("web") __perm("db", read);
