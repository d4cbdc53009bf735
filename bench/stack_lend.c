/* stack_lend.c - the default domain lends a local buffer to an entry of
 * "bench_callee" (domain_entries.h), as examples/web-db's web lends `row`
 * to db. Built twice (bench/CMakeLists.txt): as -fdipc code is, with the
 * buffer on the thread's unsafe stack (the function carves and releases an
 * unsafe frame around the call, docs/compiler.md "Stacks"), and with
 * -mllvm -dipc-unsafe-stack=false, which leaves it on the caller's own
 * stack (the callee could not reach it; it does not try). The difference
 * is what lending a local costs. */
#include "domain_entries.h"

__attribute__((noinline)) int LEND_CALL(int x) {
  unsigned char row[64];
  row[0] = (unsigned char)x;
  return domain_low_lend(row, x);
}
