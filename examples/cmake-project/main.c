/* main.c - the program (the default domain): deposits each argument in the
 * ledger through its entry and prints the balance the ledger returns. */
#include "ledger.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  long balance = 0;
  for (int i = 1; i < argc; ++i) {
    balance = ledger_deposit(strtol(argv[i], NULL, 10));
    if (dipc_errno != 0) {
      printf("the ledger domain failed (dipc_errno %d)\n", dipc_errno);
      return 1;
    }
  }
  printf("balance %ld after %d deposits\n", balance, argc - 1);
  return 0;
}
