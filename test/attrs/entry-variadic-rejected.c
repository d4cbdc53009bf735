// An entry's signature must be fixed: the proxy copies a known number of
// argument registers and stack bytes.
// RUN: %dipc-clang -fdipc -fsyntax-only -Xclang -verify %s
#include <dipc.h>

int log_line(const char *fmt, ...) __entry; // expected-error {{entry point 'log_line' cannot be variadic: its signature must be fixed}}
int log_fixed(const char *msg) __entry;
