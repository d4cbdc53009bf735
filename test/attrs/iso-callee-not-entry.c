// __iso_callee is the policy of an entry point; on any other function it
// would silently protect nothing.
// RUN: %dipc-clang -fdipc -fsyntax-only -Xclang -verify %s
#include <dipc.h>

int helper(int key) __dom("db") __iso_callee(reg_integrity); // expected-error {{'__iso_callee' on 'helper', which is not an entry point; add '__entry'}}

// __entry on another declaration of the same function is enough.
int query(int key) __dom("db") __iso_callee(reg_integrity);
int query(int key) __entry;
