/* loaded-notes.h - the notes of an object as the dynamic linker loaded it
 * (its PT_NOTE segments), for the runtime and the loader, which both read
 * notes of this project's owners (dipc/note.h, dipc/sfi.h). A note whose
 * sizes run past its segment ends that segment's walk. The validator
 * reads notes from files instead (validate/elf_image.c). */
#ifndef DIPC_LOADED_NOTES_H
#define DIPC_LOADED_NOTES_H

#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Calls each(type, desc, desc_size, arg) for every note of `owner` (a
 * NUL-terminated name, as the note stores it) in info's object. */
static inline void
dipc_each_loaded_note(const struct dl_phdr_info *info, const char *owner,
                      void (*each)(uint32_t type, const char *desc,
                                   size_t desc_size, void *arg),
                      void *arg) {
  size_t owner_size = strlen(owner) + 1;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_NOTE)
      continue;
    const char *at = (const char *)(info->dlpi_addr + ph->p_vaddr);
    const char *end = at + ph->p_memsz;
    while ((size_t)(end - at) >= sizeof(ElfW(Nhdr))) {
      const ElfW(Nhdr) *nh = (const void *)at;
      size_t name = ((size_t)nh->n_namesz + 3) & ~(size_t)3;
      size_t desc = ((size_t)nh->n_descsz + 3) & ~(size_t)3;
      const char *nm = (const char *)(nh + 1), *d = nm + name;
      if (name > (size_t)(end - nm) || desc > (size_t)(end - d))
        break;
      if (nh->n_namesz == owner_size && !memcmp(nm, owner, owner_size))
        each(nh->n_type, d, nh->n_descsz, arg);
      at = d + desc;
    }
  }
}

#endif
