/* sfi_magic.h - where an object's code holds DIPC_SFI_CALL_MAGIC
 * (dipc/sfi.h): an indirect call of -fdipc-sfi code takes any address
 * whose 4 bytes before it are the magic, so the magic may only sit right
 * before a function, where the compiler puts it. A constant of the source
 * (an immediate, a displacement, bytes the compiler folded into one) holds
 * it anywhere else; the code after it would be a call target in the
 * middle of a function, past its checks. */
#ifndef DIPC_SFI_MAGIC_H
#define DIPC_SFI_MAGIC_H

#include <stdint.h>

struct dipc_elf_image; /* elf_image.h */

/* 0 if every occurrence of the magic in img's executable segments is
 * right before a function symbol (.symtab or .dynsym); else 1 and the
 * first other one's address in *stray; -1 if there is no memory to sort
 * the symbols in. */
int dipc_sfi_magic_stray(const struct dipc_elf_image *img, uint64_t *stray);

#endif
