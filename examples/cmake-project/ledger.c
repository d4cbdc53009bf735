/* ledger.c - the ledger, plain C: dipc_add_library(... DOMAIN ledger) in
 * CMakeLists.txt puts all of it, `balance` included, in domain ledger. */
#include "ledger.h"

static long balance;

long ledger_deposit(long amount) {
  balance += amount;
  return balance;
}
