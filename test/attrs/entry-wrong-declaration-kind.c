// __entry, __iso_caller and __iso_callee apply to functions only.
// RUN: %dipc-clang -fdipc -fsyntax-only -Xclang -verify %s
#include <dipc.h>

int (*handler)(int) __entry; // expected-error {{'__entry' only applies to functions}}
int rows __dom("db") __entry; // expected-error {{'__entry' only applies to functions}}
int policy __iso_caller(reg_integrity); // expected-error {{'__iso_caller' only applies to functions}}
int callee_policy __iso_callee(reg_integrity); // expected-error {{'__iso_callee' only applies to functions}}
