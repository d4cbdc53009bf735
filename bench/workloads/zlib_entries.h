/* zlib_entries.h - domain zlib (zlib_domain.c and zlib's sources): a
 * pseudo-text input in the domain's own heap, compressed by zlib's deflate
 * at the default level. */
#ifndef DIPC_WORKLOAD_ZLIB_ENTRIES_H
#define DIPC_WORKLOAD_ZLIB_ENTRIES_H
#include <dipc.h>

/* Makes the input (`bytes` bytes) and the output buffer; 0 or -1. */
__dom("zlib") __entry int zw_prepare(unsigned long long bytes);
/* Compresses the input: the compressed size << 32 | its CRC-32, or -1. */
__dom("zlib") __entry long long zw_compress(void);
/* Inflates the last output and compares it with the input; 0 or -1. */
__dom("zlib") __entry int zw_check(void);
#endif
