/* sfi_alias.h - libc's other names for the functions the loader intercepts
 * under `sfi` (sfi_alias.c). */
#ifndef DIPC_LOADER_SFI_ALIAS_H
#define DIPC_LOADER_SFI_ALIAS_H

#include <link.h>
#include <stdint.h>

/* Pairs each intercepted function of libc with its interceptor (after
 * sfi_next_resolve_all, under sfi). */
void sfi_alias_init(void);

/* Points the import slots of an instrumented object that hold an
 * intercepted function of libc, under whatever name it was imported
 * (madvise's __madvise), at the interceptor. */
void sfi_alias_bind(const struct dl_phdr_info *info);

#endif
