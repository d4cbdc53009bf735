// __dom without a domain name.
// RUN: %dipc-clang -fdipc -fsyntax-only -Xclang -verify %s
#include <dipc.h>

int lookup(int key) __dom(); // expected-error {{'__dom' needs a domain name, e.g. __dom("db")}}
int scan(int key) __attribute__((dipc_dom)); // expected-error {{'__dom' needs a domain name, e.g. __dom("db")}}
int rows __attribute__((dipc_dom("db", "cache"))); // expected-error {{'__dom' takes exactly one domain name}}
