// Legal but useless: a policy attribute without properties.
// RUN: %dipc-clang -fdipc -fsyntax-only -Xclang -verify %s
#include <dipc.h>

int a(void) __iso_caller(); // expected-warning {{'__iso_caller' without isolation properties has no effect}}
