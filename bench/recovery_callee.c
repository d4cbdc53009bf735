/* recovery_callee.c - the callee domain of the recovery-stub benchmark,
 * compiled with dipc-clang -fdipc: two entry points, one that returns and
 * one that crashes (SIGSEGV) every time it is called. */
#include "recovery_entries.h"

/* volatile: the compiler cannot tell the store faults (no trap instead). */
static int *volatile nowhere;

int recovery_increment(int x) { return x + 1; }

int recovery_crash(int x) {
  *nowhere = x;
  return x;
}
