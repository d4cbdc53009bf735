/* heap_alloc.h - the allocator of one domain's heap region (dipc/abi.h).
 * It runs with the rights of the domain that calls malloc (under `sfi`,
 * checking what it reads from the region), and all its state lives in
 * the region: a domain that corrupts it only breaks its own heap. Chunks of 64 KiB; blocks up to 8 KiB come from slabs of one
 * size class each, larger ones are runs of whole chunks; free runs
 * coalesce and their pages go back to the kernel. The region starts with
 * its lock and the lock's holder (dipc/abi.h DIPC_HEAP_LOCK, _OWNER),
 * which the runtime releases for a thread whose call it unwinds and in a
 * forked child. */
#ifndef DIPC_LOADER_HEAP_ALLOC_H
#define DIPC_LOADER_HEAP_ALLOC_H

#include <stddef.h>
#include <stdint.h>

/* `me` is the calling thread's slot + 1 (nonzero), recorded while it
 * holds the region's lock. */

/* NULL when the region is full (or align is above a chunk). */
void *heap_alloc(uintptr_t region, uint32_t me, size_t size, size_t align);
/* Bytes usable at p, 0 if p is not a live block of the region (it then
 * stores why in *why). */
size_t heap_usable(uintptr_t region, uint32_t me, const void *p,
                   const char **why);
/* 0, or -1 with *why when p is not a live block. */
int heap_free(uintptr_t region, uint32_t me, void *p, const char **why);

/* Set under `sfi`: every link and count read from a region is checked. */
extern int heap_alloc_guarded;

/* The region's metadata was found rewritten (a link or count out of the
 * region): reports it and stops the call (heap.c). */
__attribute__((noreturn)) void heap_corrupt(uintptr_t region);

/* Largest alignment heap_alloc gives. */
#define HEAP_MAX_ALIGN ((size_t)64 * 1024)

#endif
