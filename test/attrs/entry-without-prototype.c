// An unprototyped function has no signature to record.
// RUN: %dipc-clang -fdipc -std=c17 -fsyntax-only -Xclang -verify %s
#include <dipc.h>

int query() __entry; // expected-error {{entry point 'query' needs a prototype, e.g. 'query(void)'}}
int lookup(void) __entry;
