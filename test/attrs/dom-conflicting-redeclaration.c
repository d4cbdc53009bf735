// One function, two declarations, two different domains.
// RUN: %dipc-clang -fdipc -fsyntax-only -Xclang -verify %s
#include <dipc.h>

int query(int key) __dom("db"); // expected-note {{previous domain given here}}
int query(int key) __dom("web"); // expected-error {{'query' is redeclared in domain 'web' but was declared in domain 'db'}}

int rows __dom("db"); // expected-note {{previous domain given here}}
extern int rows;
int rows __dom("cache"); // expected-error {{'rows' is redeclared in domain 'cache' but was declared in domain 'db'}}
