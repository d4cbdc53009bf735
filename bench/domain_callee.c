/* domain_callee.c - callee.c again, into the callee domain's pages. */
#include "domain_callee.h"

#define BENCH_CALLEE_IN_DOMAIN 1
#include "callee.c"
