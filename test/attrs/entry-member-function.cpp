// A non-static member function has a hidden `this` and no C signature.
// RUN: %dipc-clangxx -fdipc -fsyntax-only -Xclang -verify %s
#include <dipc.h>

struct Db {
  int query(int key) __entry; // expected-error {{'__entry' cannot be applied to a non-static member function}}
  static int lookup(int key) __entry;
};
