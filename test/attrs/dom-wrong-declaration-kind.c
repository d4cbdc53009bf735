// __dom names where code or data lives: functions and file-scope variables
// only, not locals, parameters or types.
// RUN: %dipc-clang -fdipc -fsyntax-only -Xclang -verify %s
#include <dipc.h>

typedef int row_t __dom("db"); // expected-error {{'__dom' only applies to functions and global variables}}
int lookup(int key __dom("db")); // expected-error {{'__dom' only applies to functions and global variables}}
void handle(void) {
  int local __dom("db"); // expected-error {{'__dom' only applies to functions and global variables}}
  static int counter __dom("db"); // expected-error {{'__dom' only applies to functions and global variables}}
  (void)local;
  (void)counter;
}
int global __dom("db");
