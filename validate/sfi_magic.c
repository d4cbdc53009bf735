/* sfi_magic.c - sfi_magic.h: the magic's sites against the function
 * symbols, from the file's bytes alone. */
#define _GNU_SOURCE
#include "sfi_magic.h"
#include "elf_image.h"

#include <dipc/sfi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static const uint8_t magic[4] = {
    DIPC_SFI_CALL_MAGIC & 0xff, (DIPC_SFI_CALL_MAGIC >> 8) & 0xff,
    (DIPC_SFI_CALL_MAGIC >> 16) & 0xff, DIPC_SFI_CALL_MAGIC >> 24};

struct sites {
  uint64_t *at; /* the address after each site: a function start or not */
  size_t n, max;
  uint8_t *start;
};

static int by_address(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Each site of the executable segments, once (segments may overlap in a
 * malformed file). */
static size_t collect(const struct dipc_elf_image *img, uint64_t *at,
                      size_t max) {
  size_t n = 0;
  for (unsigned i = 0; i < img->eh->e_phnum; ++i) {
    const Elf64_Phdr *p = &img->ph[i];
    if (p->p_type != PT_LOAD || !(p->p_flags & PF_X) || p->p_filesz < 4)
      continue;
    const uint8_t *code = img->file + p->p_offset;
    const uint8_t *hit = memmem(code, p->p_filesz, magic, 4);
    while (hit) {
      if (at && n < max)
        at[n] = p->p_vaddr + (uint64_t)(hit - code) + 4;
      ++n;
      size_t off = (size_t)(hit - code) + 1;
      hit = memmem(code + off, p->p_filesz - off, magic, 4);
    }
  }
  return n;
}

/* Marks the site a function symbol starts at. */
static int mark(void *ctx, const Elf64_Sym *sym, const char *name) {
  (void)name;
  struct sites *s = ctx;
  unsigned type = ELF64_ST_TYPE(sym->st_info);
  if (type != STT_FUNC && type != STT_GNU_IFUNC)
    return 0;
  uint64_t *hit =
      bsearch(&sym->st_value, s->at, s->n, sizeof *s->at, by_address);
  if (hit)
    s->start[hit - s->at] = 1;
  return 0;
}

int dipc_sfi_magic_stray(const struct dipc_elf_image *img, uint64_t *stray) {
  size_t n = collect(img, NULL, 0);
  if (n == 0)
    return 0;
  size_t bytes = n * (sizeof(uint64_t) + 1);
  void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    return -1;
  struct sites s = {m, n, n, (uint8_t *)m + n * sizeof(uint64_t)};
  collect(img, s.at, n);
  qsort(s.at, n, sizeof *s.at, by_address);
  dipc_elf_symbols(img, mark, &s);
  int found = 0;
  for (size_t i = 0; i < n && !found; ++i)
    if (!s.start[i]) {
      *stray = s.at[i] - 4;
      found = 1;
    }
  munmap(m, bytes);
  return found;
}
