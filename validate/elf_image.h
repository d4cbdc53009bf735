/* elf_image.h - locates the parts of a 64-bit x86-64 ELF file that the dIPC
 * contract lives in (segments, sections, notes), from the file's bytes
 * alone, trusting none of them: every table, offset and name is checked
 * against the file before it is used. Shared by the loader and dipc-readelf
 * through the validator (validate.h). */
#ifndef DIPC_ELF_IMAGE_H
#define DIPC_ELF_IMAGE_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dipc_elf_image {
  const uint8_t *file;
  size_t size;
  const Elf64_Ehdr *eh;
  const Elf64_Phdr *ph;     /* e_phnum entries, inside the file */
  const Elf64_Shdr *sh;     /* e_shnum entries, or NULL if it has none */
  unsigned shnum;
  const char *names;        /* the section-name table */
  size_t names_size;
  size_t mapped; /* bytes of the copy dipc_validate_file made, to unmap */
};

/* Checks the ELF header, the program-header table (each loadable segment's
 * file part inside the file) and, if present, the section-header table
 * and its name table. 0, or -1 with the reason in err. */
int dipc_elf_open(struct dipc_elf_image *img, const uint8_t *file,
                  size_t size, char *err, size_t errlen);

/* A section's name, or NULL if its name is not a NUL-terminated string of
 * the name table. */
const char *dipc_elf_section_name(const struct dipc_elf_image *img,
                                  const Elf64_Shdr *sh);

/* The section called name, or NULL. Several sections of that name: NULL
 * and *duplicate set. */
const Elf64_Shdr *dipc_elf_section(const struct dipc_elf_image *img,
                                   const char *name, int *duplicate);

/* The loadable segment that holds [vaddr, vaddr + size) in memory, or NULL. */
const Elf64_Phdr *dipc_elf_segment(const struct dipc_elf_image *img,
                                   uint64_t vaddr, uint64_t size);

/* The file bytes of [vaddr, vaddr + size), or NULL unless they all come
 * from the file (not the zero-filled end of a segment). */
const uint8_t *dipc_elf_bytes(const struct dipc_elf_image *img,
                              uint64_t vaddr, uint64_t size);

/* Calls fn for every note of the file's PT_NOTE segments; stops at the
 * first nonzero result and returns it. -1 on a malformed note (reason in
 * err). */
int dipc_elf_notes(const struct dipc_elf_image *img,
                   int (*fn)(void *ctx, const char *name, uint32_t type,
                             const uint8_t *desc, uint32_t descsz),
                   void *ctx, char *err, size_t errlen);

/* Calls fn for every defined symbol (st_shndx not SHN_UNDEF) of the
 * file's symbol tables (.symtab and .dynsym) that lie inside the file,
 * with its name: NULL unless a NUL-terminated string of the table's
 * string table. Stops at the first nonzero result and returns it. */
int dipc_elf_symbols(const struct dipc_elf_image *img,
                     int (*fn)(void *ctx, const Elf64_Sym *sym,
                               const char *name),
                     void *ctx);

/* The name of the symbol a dynamic relocation (DT_RELA) at `where`
 * refers to: NULL if no such relocation, or it names no symbol. */
const char *dipc_elf_reloc_symbol(const struct dipc_elf_image *img,
                                  uint64_t where);

#ifdef __cplusplus
}
#endif

#endif
