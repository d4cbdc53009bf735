/* mappings.h - checks on executable memory created after start. */
#ifndef DIPC_LOADER_MAPPINGS_H
#define DIPC_LOADER_MAPPINGS_H

/* From now on, mmap and mprotect calls that make memory executable are
 * checked for PKRU-writing code first (mpk backend). */
void mappings_enforce(void);

#endif
