// [[dipc::dom]] works; the bare [[dom]] is not a dIPC attribute.
// RUN: %dipc-clang -fdipc -std=c23 -fsyntax-only -Xclang -verify %s
#include <dipc.h>

[[dom("db")]] int a(void); // expected-error {{write '[[dipc::dom]]': dIPC attributes need their scope}}
[[dipc::dom("db")]] int b(void);
