/* elf_image.c - see elf_image.h. Every size is checked in a form that cannot
 * overflow (a <= size && b <= size - a) before it is used. */
#include "elf_image.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int fail(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return -1;
}

/* [off, off + len) inside a buffer of `size` bytes. */
static int within(uint64_t off, uint64_t len, uint64_t size) {
  return off <= size && len <= size - off;
}

int dipc_elf_open(struct dipc_elf_image *img, const uint8_t *file,
                  size_t size, char *err, size_t errlen) {
  memset(img, 0, sizeof *img);
  img->file = file;
  img->size = size;
  if (size < sizeof(Elf64_Ehdr) || memcmp(file, ELFMAG, SELFMAG) != 0)
    return fail(err, errlen, "not an ELF file");
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file;
  img->eh = eh;
  if (eh->e_ident[EI_CLASS] != ELFCLASS64 ||
      eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_machine != EM_X86_64)
    return fail(err, errlen, "not a 64-bit little-endian x86-64 ELF file");
  if (eh->e_type == ET_REL)
    return fail(err, errlen,
                "is a relocatable object; dIPC records are complete only in "
                "linked executables and shared objects");
  if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
    return fail(err, errlen, "ELF type %u is neither an executable nor a "
                "shared object", eh->e_type);
  if ((eh->e_phnum && eh->e_phentsize != sizeof(Elf64_Phdr)) ||
      !within(eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr), size) ||
      eh->e_phoff % 8)
    return fail(err, errlen, "malformed program-header table");
  img->ph = (const Elf64_Phdr *)(file + eh->e_phoff);
  for (unsigned i = 0; i < eh->e_phnum; ++i) {
    const Elf64_Phdr *p = &img->ph[i];
    if ((p->p_type == PT_LOAD || p->p_type == PT_NOTE ||
         p->p_type == PT_DYNAMIC) &&
        (!within(p->p_offset, p->p_filesz, size) || p->p_filesz > p->p_memsz))
      return fail(err, errlen,
                  "segment %u [file %#llx, +%#llx) lies outside the file "
                  "(%zu bytes): truncated?",
                  i, (unsigned long long)p->p_offset,
                  (unsigned long long)p->p_filesz, size);
    if (p->p_type == PT_LOAD && p->p_vaddr + p->p_memsz < p->p_vaddr)
      return fail(err, errlen, "segment %u wraps around", i);
  }
  if (eh->e_shoff == 0 && eh->e_shnum == 0)
    return 0; /* no section headers: the records cannot be found */
  if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shnum == 0 ||
      eh->e_shoff % 8 ||
      !within(eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr), size))
    return fail(err, errlen, "malformed section-header table (offset %#llx, "
                "%u entries): truncated?",
                (unsigned long long)eh->e_shoff, eh->e_shnum);
  if (eh->e_shstrndx == SHN_UNDEF || eh->e_shstrndx >= eh->e_shnum)
    return fail(err, errlen, "no section-name table (index %u)",
                eh->e_shstrndx);
  img->sh = (const Elf64_Shdr *)(file + eh->e_shoff);
  img->shnum = eh->e_shnum;
  const Elf64_Shdr *names = &img->sh[eh->e_shstrndx];
  if (names->sh_type != SHT_STRTAB || names->sh_size == 0 ||
      !within(names->sh_offset, names->sh_size, size) ||
      file[names->sh_offset + names->sh_size - 1] != '\0')
    return fail(err, errlen, "malformed section-name table");
  img->names = (const char *)file + names->sh_offset;
  img->names_size = names->sh_size;
  for (unsigned i = 0; i < img->shnum; ++i) {
    const Elf64_Shdr *s = &img->sh[i];
    if (!dipc_elf_section_name(img, s))
      return fail(err, errlen, "section %u has a malformed name", i);
    if (s->sh_type != SHT_NOBITS && s->sh_type != SHT_NULL &&
        !within(s->sh_offset, s->sh_size, size))
      return fail(err, errlen, "section %u (%s) lies outside the file", i,
                  dipc_elf_section_name(img, s));
  }
  return 0;
}

const char *dipc_elf_section_name(const struct dipc_elf_image *img,
                                  const Elf64_Shdr *sh) {
  if (!img->names || sh->sh_name >= img->names_size)
    return NULL;
  return img->names + sh->sh_name; /* the table ends with a NUL */
}

const Elf64_Shdr *dipc_elf_section(const struct dipc_elf_image *img,
                                   const char *name, int *duplicate) {
  const Elf64_Shdr *found = NULL;
  *duplicate = 0;
  for (unsigned i = 0; i < img->shnum; ++i) {
    const char *n = dipc_elf_section_name(img, &img->sh[i]);
    if (!n || strcmp(n, name) != 0)
      continue;
    if (found) {
      *duplicate = 1;
      return NULL;
    }
    found = &img->sh[i];
  }
  return found;
}

const Elf64_Phdr *dipc_elf_segment(const struct dipc_elf_image *img,
                                   uint64_t vaddr, uint64_t size) {
  for (unsigned i = 0; i < img->eh->e_phnum; ++i) {
    const Elf64_Phdr *p = &img->ph[i];
    if (p->p_type == PT_LOAD && vaddr >= p->p_vaddr &&
        within(vaddr - p->p_vaddr, size, p->p_memsz))
      return p;
  }
  return NULL;
}

const uint8_t *dipc_elf_bytes(const struct dipc_elf_image *img,
                              uint64_t vaddr, uint64_t size) {
  const Elf64_Phdr *p = dipc_elf_segment(img, vaddr, size);
  if (!p || !within(vaddr - p->p_vaddr, size, p->p_filesz))
    return NULL;
  return img->file + p->p_offset + (vaddr - p->p_vaddr);
}

int dipc_elf_notes(const struct dipc_elf_image *img,
                   int (*fn)(void *ctx, const char *name, uint32_t type,
                             const uint8_t *desc, uint32_t descsz),
                   void *ctx, char *err, size_t errlen) {
  for (unsigned i = 0; i < img->eh->e_phnum; ++i) {
    const Elf64_Phdr *p = &img->ph[i];
    if (p->p_type != PT_NOTE)
      continue;
    const uint8_t *at = img->file + p->p_offset;
    uint64_t left = p->p_filesz;
    while (left >= sizeof(Elf64_Nhdr)) {
      Elf64_Nhdr nh;
      memcpy(&nh, at, sizeof nh);
      uint64_t name_room = ((uint64_t)nh.n_namesz + 3) & ~3ull;
      uint64_t desc_room = ((uint64_t)nh.n_descsz + 3) & ~3ull;
      if (!within(sizeof nh, name_room, left) ||
          !within(sizeof nh + name_room, desc_room, left))
        return fail(err, errlen, "malformed note in segment %u", i);
      const char *name = (const char *)at + sizeof nh;
      if (nh.n_namesz && name[nh.n_namesz - 1] == '\0') {
        int r = fn(ctx, name, nh.n_type, at + sizeof nh + name_room,
                   nh.n_descsz);
        if (r)
          return r;
      }
      at += sizeof nh + name_room + desc_room;
      left -= sizeof nh + name_room + desc_room;
    }
  }
  return 0;
}

/* The string at off of section sh, or NULL unless sh is a string table
 * inside the file and a NUL ends the string within it. */
static const char *string_at(const struct dipc_elf_image *img,
                             const Elf64_Shdr *sh, uint32_t off) {
  if (sh->sh_type != SHT_STRTAB ||
      !within(sh->sh_offset, sh->sh_size, img->size) || off >= sh->sh_size)
    return NULL;
  const char *s = (const char *)img->file + sh->sh_offset + off;
  return memchr(s, 0, sh->sh_size - off) ? s : NULL;
}

int dipc_elf_symbols(const struct dipc_elf_image *img,
                     int (*fn)(void *ctx, const Elf64_Sym *sym,
                               const char *name),
                     void *ctx) {
  for (unsigned i = 0; img->sh && i < img->shnum; ++i) {
    const Elf64_Shdr *sh = &img->sh[i];
    if ((sh->sh_type != SHT_SYMTAB && sh->sh_type != SHT_DYNSYM) ||
        sh->sh_entsize != sizeof(Elf64_Sym) ||
        !within(sh->sh_offset, sh->sh_size, img->size))
      continue;
    const Elf64_Shdr *strings =
        sh->sh_link < img->shnum ? &img->sh[sh->sh_link] : NULL;
    const uint8_t *table = img->file + sh->sh_offset;
    for (size_t j = 0; j < sh->sh_size / sizeof(Elf64_Sym); ++j) {
      Elf64_Sym sym; /* copied out: a file need not align its table */
      memcpy(&sym, table + j * sizeof sym, sizeof sym);
      if (sym.st_shndx == SHN_UNDEF)
        continue;
      int r = fn(ctx, &sym,
                 strings ? string_at(img, strings, sym.st_name) : NULL);
      if (r)
        return r;
    }
  }
  return 0;
}

/* The value of the dynamic tag `tag`, or 0. */
static uint64_t dynamic_value(const struct dipc_elf_image *img, int64_t tag) {
  for (unsigned i = 0; i < img->eh->e_phnum; ++i) {
    const Elf64_Phdr *p = &img->ph[i];
    if (p->p_type != PT_DYNAMIC)
      continue;
    for (uint64_t o = 0; o + sizeof(Elf64_Dyn) <= p->p_filesz;
         o += sizeof(Elf64_Dyn)) {
      Elf64_Dyn d;
      memcpy(&d, img->file + p->p_offset + o, sizeof d);
      if (d.d_tag == DT_NULL)
        break;
      if (d.d_tag == tag)
        return d.d_un.d_val;
    }
  }
  return 0;
}

const char *dipc_elf_reloc_symbol(const struct dipc_elf_image *img,
                                  uint64_t where) {
  uint64_t rela = dynamic_value(img, DT_RELA);
  uint64_t size = dynamic_value(img, DT_RELASZ);
  uint64_t symtab = dynamic_value(img, DT_SYMTAB);
  uint64_t strtab = dynamic_value(img, DT_STRTAB);
  uint64_t strsz = dynamic_value(img, DT_STRSZ);
  const uint8_t *table = rela ? dipc_elf_bytes(img, rela, size) : NULL;
  const char *strings =
      strtab ? (const char *)dipc_elf_bytes(img, strtab, strsz) : NULL;
  if (!table || !symtab || !strings || !strsz)
    return NULL;
  for (uint64_t o = 0; o + sizeof(Elf64_Rela) <= size;
       o += sizeof(Elf64_Rela)) {
    Elf64_Rela r;
    memcpy(&r, table + o, sizeof r);
    if (r.r_offset != where)
      continue;
    uint64_t index = ELF64_R_SYM(r.r_info);
    const uint8_t *at =
        index ? dipc_elf_bytes(img, symtab + index * sizeof(Elf64_Sym),
                               sizeof(Elf64_Sym))
              : NULL;
    if (!at)
      return NULL;
    Elf64_Sym sym;
    memcpy(&sym, at, sizeof sym);
    if (sym.st_name >= strsz || !memchr(strings + sym.st_name, '\0',
                                        strsz - sym.st_name))
      return NULL;
    return strings + sym.st_name;
  }
  return NULL;
}
