/* sfi_calls.h - refuses an instrumented object that calls a C library
 * function whose pointers nothing checks (sfi_calls.c). */
#ifndef DIPC_LOADER_SFI_CALLS_H
#define DIPC_LOADER_SFI_CALLS_H

#include <link.h>

/* Under sfi: finds libc, libm and the functions they define that need no
 * check (before any object is checked or any domain code runs). */
void sfi_calls_init(void);

/* Under sfi: stops the process if the object's calls note names such a
 * function. */
void sfi_calls_check(const struct dl_phdr_info *info);

#endif
