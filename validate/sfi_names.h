/* sfi_names.h - whether an object defines a function under one of the
 * names of the runtime that -fdipc-sfi code calls (dipc/sfi.h,
 * dipc_sfi_is_runtime_name): its checks' slow paths would then reach the
 * object's own function, not the runtime's (a no-op __dipc_sfi_check let
 * every denied access through). */
#ifndef DIPC_SFI_NAMES_H
#define DIPC_SFI_NAMES_H

#include <stddef.h>

struct dipc_elf_image; /* elf_image.h */

/* 1 if a function symbol of img (.symtab or .dynsym, any binding) is
 * defined under a runtime name, copied to name (truncated to len); else
 * 0. */
int dipc_sfi_runtime_name_defined(const struct dipc_elf_image *img,
                                  char *name, size_t len);

#endif
