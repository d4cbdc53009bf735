// Legal but probably a typo: a property named twice.
// RUN: %dipc-clang -fdipc -fsyntax-only -Xclang -verify %s
#include <dipc.h>

int a(void) __iso_caller(reg_integrity, reg_integrity); // expected-warning {{isolation property 'reg_integrity' listed twice in '__iso_caller'}}
int b(void) __iso_caller(stack_integrity, "stack_integrity"); // expected-warning {{isolation property 'stack_integrity' listed twice in '__iso_caller'}}
