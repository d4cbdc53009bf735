// The domain name is a string literal, not an identifier or a number.
// RUN: %dipc-clang -fdipc -fsyntax-only -Xclang -verify %s
#include <dipc.h>

int lookup(int key) __dom(db); // expected-error {{the domain name of '__dom' must be a string literal, e.g. __dom("db")}}
int scan(int key) __dom(42); // expected-error {{the domain name of '__dom' must be a string literal, e.g. __dom("db")}}
int grant(void) __perm(cache, read); // expected-error {{the domain name of '__perm' must be a string literal, e.g. __perm("db")}}
