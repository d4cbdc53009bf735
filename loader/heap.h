/* heap.h - malloc, free and friends per domain (heap.c). */
#ifndef DIPC_LOADER_HEAP_H
#define DIPC_LOADER_HEAP_H

/* Named domains allocate from their own heaps from now on: called once
 * the runtime is up and the program's domains exist. */
void heap_start(void);

/* Whether a domain's own heap, not libc's, serves this thread now. */
int heap_serves_domain(void);

#endif
