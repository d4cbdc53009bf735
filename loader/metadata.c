/* metadata.c - the records of one loaded object: the validator
 * (validate/validate.h) checks the object's file; the loader then uses the
 * records in memory, once it has checked that they are the validated
 * bytes. */
#define _GNU_SOURCE
#include "metadata.h"

#include <dipc/rt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The object's file, as the validator read it, must be what is mapped:
 * its loadable segments where the kernel or ld.so put them, and every
 * record section's bytes in memory equal to the validated bytes. */
static int matches_memory(const struct dl_phdr_info *info,
                          const struct dipc_elf_image *img,
                          const struct dipc_validated *v, char *err,
                          size_t errlen) {
  unsigned file_loads = 0, mem_loads = 0;
  for (unsigned i = 0; i < img->eh->e_phnum; ++i)
    file_loads += img->ph[i].p_type == PT_LOAD;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD)
      continue;
    ++mem_loads;
    const Elf64_Phdr *f = dipc_elf_segment(img, ph->p_vaddr, ph->p_memsz);
    if (!f || f->p_vaddr != ph->p_vaddr || f->p_memsz != ph->p_memsz ||
        f->p_flags != ph->p_flags) {
      snprintf(err, errlen, "its file does not describe the segments in "
               "memory (replaced since it was loaded?)");
      return -1;
    }
  }
  for (unsigned k = 0; k < DIPC_NUM_RECORD_KINDS; ++k) {
    const struct dipc_record_table *t = &v->tables[k];
    size_t bytes = t->count * dipc_record_info_of(k)->size;
    if (bytes && memcmp((const void *)(info->dlpi_addr + t->vaddr), t->bytes,
                        bytes) != 0) {
      snprintf(err, errlen, "section %s in memory differs from the file",
               dipc_record_info_of(k)->section);
      return -1;
    }
  }
  if (file_loads != mem_loads) {
    snprintf(err, errlen, "its file has %u loadable segments, memory %u",
             file_loads, mem_loads);
    return -1;
  }
  return 0;
}

int metadata_read(const struct dl_phdr_info *info, struct object_metadata *out,
                  char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  const char *path = info->dlpi_name;
  if (!path || !*path) {
    /* The program itself: name it by its real path in messages. */
    path = "/proc/self/exe";
    ssize_t n = readlink(path, out->path, sizeof out->path - 1);
    out->path[n > 0 ? n : 0] = '\0';
  }
  if (!out->path[0])
    snprintf(out->path, sizeof out->path, "%s", path);
  out->base = info->dlpi_addr;

  struct dipc_elf_image img;
  struct dipc_validated v;
  int status = dipc_validate_file(path, &img, &v, err, errlen);
  if (status < 0)
    return -1;
  if (status > 0 && matches_memory(info, &img, &v, err, errlen) != 0)
    status = -1;
  dipc_validate_close(&img);
  if (status <= 0)
    return status;
  /* Under sfi, isolation holds only where the checks were compiled in. */
  if (!strcmp(dipc_backend(), "sfi") && v.sfi_units < v.units) {
    snprintf(err, errlen,
             "%u of its %u units with dIPC records were compiled without "
             "-fdipc-sfi: backend `sfi` cannot enforce their isolation",
             v.units - v.sfi_units, v.units);
    return -1;
  }
  if (!strcmp(dipc_backend(), "sfi") && v.sfi_runtime_name) {
    snprintf(err, errlen,
             "it defines a function '%s' under a name of the runtime's, "
             "which its sfi checks would call instead of the runtime's",
             v.sfi_runtime_name_at);
    return -1;
  }
  if (!strcmp(dipc_backend(), "sfi") && v.sfi_magic_stray) {
    snprintf(err, errlen, DIPC_SFI_MAGIC_STRAY_FMT,
             (unsigned long long)v.sfi_magic_at);
    return -1;
  }
  struct record_array *arrays[DIPC_NUM_RECORD_KINDS] = {
      [DIPC_RECORD_KIND_domain] = &out->domains,
      [DIPC_RECORD_KIND_entry] = &out->entries,
      [DIPC_RECORD_KIND_import] = &out->imports,
      [DIPC_RECORD_KIND_grant] = &out->grants,
      [DIPC_RECORD_KIND_anycall] = &out->anycalls};
  for (unsigned k = 0; k < DIPC_NUM_RECORD_KINDS; ++k) {
    arrays[k]->first = (const void *)(info->dlpi_addr + v.tables[k].vaddr);
    arrays[k]->count = v.tables[k].count;
  }
  return 1;
}
