// Unknown isolation properties, as identifiers, strings and bits.
// RUN: %dipc-clang -fdipc -fsyntax-only -Xclang -verify %s
#include <dipc.h>

int a(void) __iso_caller(reg_integrty); // expected-error {{unknown isolation property 'reg_integrty' in '__iso_caller'; expected reg_integrity, reg_confidentiality, stack_integrity, stack_confidentiality, dcs_integrity or dcs_confidentiality}}
int b(void) __iso_caller("reg_integrity, heap_integrity"); // expected-error {{unknown isolation property 'heap_integrity' in '__iso_caller'}}
int c(void) __entry __iso_callee(0x40); // expected-error {{unknown isolation property bits 0x40 in '__iso_callee'}}
int d(void) __iso_caller(reg_integrity, 1.5); // expected-error {{isolation properties of '__iso_caller' must be constants from dipc.h or strings}}
