/* sfi_names.c - sfi_names.h: the symbol tables against the runtime's
 * names, from the file's bytes alone. */
#include "sfi_names.h"
#include "elf_image.h"

#include <dipc/sfi.h>
#include <string.h>

/* The string at off of the string table sh, or NULL if it is not one. */
static const char *string_at(const struct dipc_elf_image *img,
                             const Elf64_Shdr *sh, uint32_t off) {
  if (sh->sh_type != SHT_STRTAB || sh->sh_offset > img->size ||
      sh->sh_size > img->size - sh->sh_offset || off >= sh->sh_size)
    return NULL;
  const char *s = (const char *)img->file + sh->sh_offset + off;
  return memchr(s, 0, sh->sh_size - off) ? s : NULL;
}

int dipc_sfi_runtime_name_defined(const struct dipc_elf_image *img,
                                  char *name, size_t len) {
  for (unsigned i = 0; img->sh && i < img->shnum; ++i) {
    const Elf64_Shdr *sh = &img->sh[i];
    if ((sh->sh_type != SHT_SYMTAB && sh->sh_type != SHT_DYNSYM) ||
        sh->sh_entsize != sizeof(Elf64_Sym) || sh->sh_offset > img->size ||
        sh->sh_size > img->size - sh->sh_offset || sh->sh_link >= img->shnum)
      continue;
    const uint8_t *table = img->file + sh->sh_offset;
    for (size_t j = 0; j < sh->sh_size / sizeof(Elf64_Sym); ++j) {
      Elf64_Sym sym; /* copied out: a file need not align its table */
      memcpy(&sym, table + j * sizeof sym, sizeof sym);
      unsigned type = ELF64_ST_TYPE(sym.st_info);
      if (sym.st_shndx == SHN_UNDEF ||
          (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE))
        continue;
      const char *s = string_at(img, &img->sh[sh->sh_link], sym.st_name);
      /* The passes' own wrapper is module-local: no other unit's function
       * of its name can stand in for it. */
      if (s && dipc_sfi_is_runtime_name(s) &&
          !(ELF64_ST_BIND(sym.st_info) == STB_LOCAL &&
            !strcmp(s, DIPC_SFI_PRESERVE_MOST_WRAPPER))) {
        if (len) {
          strncpy(name, s, len - 1);
          name[len - 1] = 0;
        }
        return 1;
      }
    }
  }
  return 0;
}
