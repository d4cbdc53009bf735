/* zlib.c - the zlib workload: compressing 10 MiB of pseudo-text with
 * deflate, inside domain zlib in the dIPC builds (zlib_entries.h). One
 * run: one entry call that compresses the whole input. */
#include "workload.h"
#include "zlib_entries.h"

#define BYTES (10ull << 20)

const char workload_name[] = "zlib";

int workload_prepare(void) { return zw_prepare(BYTES); }

int workload_run(unsigned long long *result) {
  long long r = zw_compress();
  *result = (unsigned long long)r;
  return r < 0 ? -1 : 0;
}

int workload_check(unsigned long long result) {
  (void)result;
  return zw_check();
}
