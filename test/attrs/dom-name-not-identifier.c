// Domain names become parts of section and symbol names.
// RUN: %dipc-clang -fdipc -fsyntax-only -Xclang -verify %s
#include <dipc.h>

int lookup(int key) __dom("my-db"); // expected-error {{domain name 'my-db' is not a C identifier (it names sections and symbols)}}
int scan(int key) __dom(""); // expected-error {{domain name '' is not a C identifier (it names sections and symbols)}}
int probe(int key) __dom("9lives"); // expected-error {{domain name '9lives' is not a C identifier (it names sections and symbols)}}
int ok(int key) __dom("_db2");
