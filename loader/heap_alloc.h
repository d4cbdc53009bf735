/* heap_alloc.h - the allocator of one domain's heap region (dipc/abi.h).
 * It runs with the rights of the domain that calls malloc, and all its
 * state lives in the region: a domain that corrupts it only breaks its
 * own heap. Chunks of 64 KiB; blocks up to 8 KiB come from slabs of one
 * size class each, larger ones are runs of whole chunks; free runs
 * coalesce and their pages go back to the kernel. The region's first u32
 * is its lock (0: free), which the runtime clears in a forked child
 * (dipc/abi.h DIPC_HEAP_LOCK). */
#ifndef DIPC_LOADER_HEAP_ALLOC_H
#define DIPC_LOADER_HEAP_ALLOC_H

#include <stddef.h>
#include <stdint.h>

/* NULL when the region is full (or align is above a chunk). */
void *heap_alloc(uintptr_t region, size_t size, size_t align);
/* Bytes usable at p, 0 if p is not a live block of the region (it then
 * stores why in *why). */
size_t heap_usable(uintptr_t region, const void *p, const char **why);
/* 0, or -1 with *why when p is not a live block. */
int heap_free(uintptr_t region, void *p, const char **why);

/* Largest alignment heap_alloc gives. */
#define HEAP_MAX_ALIGN ((size_t)64 * 1024)

#endif
