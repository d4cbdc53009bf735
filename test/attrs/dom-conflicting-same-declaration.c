// Two domains on one declaration.
// RUN: %dipc-clang -fdipc -fsyntax-only -Xclang -verify %s
#include <dipc.h>

int query(int key) __dom("db") __dom("web"); // expected-error {{conflicting domains 'db' and 'web' for one declaration}}
int lookup(int key) __dom("db") __dom("db");
