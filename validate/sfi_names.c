/* sfi_names.c - sfi_names.h: the symbol tables against the runtime's
 * names, from the file's bytes alone. */
#include "sfi_names.h"
#include "elf_image.h"

#include <dipc/sfi.h>
#include <string.h>

struct found {
  char *name;
  size_t len;
};

/* The passes' own wrapper is module-local: no other unit's function of
 * its name can stand in for it. */
static int runtime_name(void *ctx, const Elf64_Sym *sym, const char *s) {
  struct found *f = ctx;
  unsigned type = ELF64_ST_TYPE(sym->st_info);
  if (!s || (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE) ||
      !dipc_sfi_is_runtime_name(s) ||
      (ELF64_ST_BIND(sym->st_info) == STB_LOCAL &&
       !strcmp(s, DIPC_SFI_PRESERVE_MOST_WRAPPER)))
    return 0;
  if (f->len) {
    strncpy(f->name, s, f->len - 1);
    f->name[f->len - 1] = 0;
  }
  return 1;
}

int dipc_sfi_runtime_name_defined(const struct dipc_elf_image *img,
                                  char *name, size_t len) {
  struct found f = {name, len};
  return dipc_elf_symbols(img, runtime_name, &f);
}
