/* zlib_domain.c - the wrapper of domain zlib (zlib_entries.h), compiled
 * with -fdipc-domain=zlib like zlib's own sources. Its buffers come from
 * the domain's own heap; it reads only libc's data and the GOT in the
 * default domain. */
#include "zlib_entries.h"

#include "zlib.h"

#include <stdlib.h>
#include <string.h>

__perm("default", read) int zw_prepare(unsigned long long bytes);

static unsigned char *input, *output;
static size_t input_size, output_cap, output_size;

/* Words drawn by a linear congruential generator: text-like, compresses
 * about 3:1 at level 6. */
static void fill_text(unsigned char *p, size_t n) {
  static const char *const words[] = {
      "the ",    "domain ", "call ",   "proxy ",  "stack ",  "of ",
      "and ",    "memory ", "entry ",  "isolation ", "a ",   "page ",
      "fault ",  "returns ", "caller ", "callee ", "to ",    "in ",
      "capability ", "grant ", "thread ", "kernel ", "is ",  "with ",
      "process ", "\n",      "runtime ", "check ",  "key ",   "table ",
      "by ",     "loader "};
  unsigned long long x = 88172645463325252ull;
  size_t at = 0;
  while (at < n) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const char *w = words[(x >> 33) % (sizeof words / sizeof *words)];
    size_t len = strlen(w);
    if (len > n - at)
      len = n - at;
    memcpy(p + at, w, len);
    at += len;
  }
}

int zw_prepare(unsigned long long bytes) {
  input_size = bytes;
  output_cap = compressBound(bytes);
  input = malloc(input_size);
  output = malloc(output_cap);
  if (!input || !output)
    return -1;
  fill_text(input, input_size);
  return 0;
}

long long zw_compress(void) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (deflateInit(&z, Z_DEFAULT_COMPRESSION) != Z_OK)
    return -1;
  z.next_in = input;
  z.avail_in = (uInt)input_size;
  z.next_out = output;
  z.avail_out = (uInt)output_cap;
  int rc = deflate(&z, Z_FINISH);
  output_size = z.total_out;
  if (deflateEnd(&z) != Z_OK || rc != Z_STREAM_END)
    return -1;
  uLong crc = crc32(crc32(0, Z_NULL, 0), output, (uInt)output_size);
  return (long long)output_size << 32 | (long long)crc;
}

int zw_check(void) {
  unsigned char *back = malloc(input_size);
  uLongf size = input_size;
  int ok = back && uncompress(back, &size, output, output_size) == Z_OK &&
           size == input_size && !memcmp(back, input, input_size);
  free(back);
  return ok ? 0 : -1;
}
