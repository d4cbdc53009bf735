/* metadata.c - defensive reading of the records the compiler put into an
 * object (include/dipc/metadata.h). Section headers come from the file, the
 * records themselves from memory; every offset, size and reference is
 * checked against the file and the object's loaded segments first. */
#define _GNU_SOURCE
#include "metadata.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return -1;
}

/* Is [addr, addr+size) inside one loaded segment of the object? */
static int in_segments(const struct dl_phdr_info *info, uintptr_t addr,
                       size_t size) {
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD)
      continue;
    uintptr_t start = info->dlpi_addr + ph->p_vaddr;
    if (addr >= start && size <= ph->p_memsz && addr - start <= ph->p_memsz - size)
      return 1;
  }
  return 0;
}

static int in_phdr(const struct dl_phdr_info *info, const ElfW(Phdr) * ph,
                   uintptr_t addr, size_t size) {
  uintptr_t start = info->dlpi_addr + ph->p_vaddr;
  return addr >= start && size <= ph->p_memsz &&
         addr - start <= ph->p_memsz - size;
}

/* Does [addr, addr+size) stay writable after relocation: inside a
 * writable loaded segment and outside the RELRO region? */
static int in_writable_data(const struct dl_phdr_info *info, uintptr_t addr,
                            size_t size) {
  int writable = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_GNU_RELRO && in_phdr(info, ph, addr, 1))
      return 0;
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W) &&
        in_phdr(info, ph, addr, size))
      writable = 1;
  }
  return writable;
}

struct reader {
  const struct dl_phdr_info *info;
  char *err;
  size_t errlen;
};

/* A reference must be 0 (when allowed) or point into the object. */
static int check_ref(struct reader *r, const dipc_rel_t *field, size_t size,
                     int optional, const char *what) {
  if (*field == 0)
    return optional ? 0 : fail(r->err, r->errlen, "%s is missing", what);
  uintptr_t target = (uintptr_t)field + (uintptr_t)*field;
  if (!in_segments(r->info, target, size))
    return fail(r->err, r->errlen, "%s points outside the object (%#lx)",
                what, (unsigned long)target);
  return 0;
}

/* A name: a reference to a NUL-terminated string inside the object. */
static int check_name(struct reader *r, const dipc_rel_t *field,
                      const char *what) {
  if (check_ref(r, field, 1, 0, what))
    return -1;
  const char *s = metadata_ref(field);
  for (size_t n = 0; n < 256; ++n) {
    if (!in_segments(r->info, (uintptr_t)s + n, 1))
      break;
    if (s[n] == '\0')
      return n ? 0 : fail(r->err, r->errlen, "%s is empty", what);
  }
  return fail(r->err, r->errlen, "%s is not a NUL-terminated name", what);
}

static int check_header(struct reader *r, const struct dipc_record_header *h,
                        size_t size, const char *kind, size_t index) {
  if (h->version != DIPC_METADATA_VERSION)
    return fail(r->err, r->errlen,
                "%s record %zu has version %u; this loader reads version %d",
                kind, index, h->version, DIPC_METADATA_VERSION);
  if (h->size != size)
    return fail(r->err, r->errlen,
                "%s record %zu has size %u; version %d records have %zu",
                kind, index, h->size, DIPC_METADATA_VERSION, size);
  return 0;
}

static int check_signature(struct reader *r, const struct dipc_signature *s,
                           const char *what) {
  if (!DIPC_SIGNATURE_OK(s))
    return fail(r->err, r->errlen, "%s has an impossible signature", what);
  return 0;
}

static int check_domains(struct reader *r, const struct record_array *a) {
  for (size_t i = 0; i < a->count; ++i) {
    const struct dipc_domain_record *d =
        METADATA_RECORD(*a, struct dipc_domain_record, i);
    if (check_header(r, &d->header, sizeof *d, "domain", i) ||
        check_name(r, &d->name, "a domain name"))
      return -1;
    for (int k = 0; k < DIPC_NUM_SECTION_KINDS; ++k) {
      const dipc_rel_t *range = d->ranges[k];
      if (!range[0] && !range[1])
        continue;
      uintptr_t begin = (uintptr_t)&range[0] + (uintptr_t)range[0];
      uintptr_t end = (uintptr_t)&range[1] + (uintptr_t)range[1];
      const char *name = metadata_ref(&d->name);
      if (!range[0] || !range[1] || end < begin)
        return fail(r->err, r->errlen, "domain '%s' has a malformed range",
                    name);
      if (begin % DIPC_PAGE_SIZE)
        return fail(r->err, r->errlen,
                    "domain '%s' does not start on a page boundary (%#lx): "
                    "its pages would be shared with other code or data",
                    name, (unsigned long)begin);
      if (end > begin && !in_segments(r->info, begin, end - begin))
        return fail(r->err, r->errlen,
                    "domain '%s' extends outside the object", name);
    }
  }
  return 0;
}

static int check_entries(struct reader *r, const struct record_array *a) {
  for (size_t i = 0; i < a->count; ++i) {
    const struct dipc_entry_record *e =
        METADATA_RECORD(*a, struct dipc_entry_record, i);
    if (check_header(r, &e->header, sizeof *e, "entry", i) ||
        check_name(r, &e->name, "an entry name") ||
        check_name(r, &e->domain, "an entry's domain") ||
        check_ref(r, &e->callee_stub, 1, 0, "an entry's callee stub") ||
        check_ref(r, &e->function, 1, 0, "an entry's function") ||
        check_signature(r, &e->signature, "an entry"))
      return -1;
  }
  return 0;
}

static int check_imports(struct reader *r, const struct record_array *a) {
  for (size_t i = 0; i < a->count; ++i) {
    const struct dipc_import_record *m =
        METADATA_RECORD(*a, struct dipc_import_record, i);
    if (check_header(r, &m->header, sizeof *m, "import", i) ||
        check_name(r, &m->name, "an import name") ||
        check_name(r, &m->domain, "an import's domain") ||
        check_name(r, &m->callee_domain, "an import's callee domain") ||
        check_ref(r, &m->slot, sizeof(void *), 0, "an import's slot") ||
        check_signature(r, &m->signature, "an import"))
      return -1;
    /* The runtime stores into the slot: read-only data would fault in
     * libdipc at start. */
    uintptr_t slot = (uintptr_t)metadata_ref(&m->slot);
    if (!in_writable_data(r->info, slot, sizeof(void *)))
      return fail(r->err, r->errlen,
                  "an import's slot is not in writable data (%#lx)",
                  (unsigned long)slot);
  }
  return 0;
}

/* Is [addr, addr+size) inside one executable loaded segment? */
static int in_code(const struct dl_phdr_info *info, uintptr_t addr,
                   size_t size) {
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) &&
        in_phdr(info, ph, addr, size))
      return 1;
  }
  return 0;
}

static int check_anycalls(struct reader *r, const struct record_array *a) {
  for (size_t i = 0; i < a->count; ++i) {
    const struct dipc_anycall_record *c =
        METADATA_RECORD(*a, struct dipc_anycall_record, i);
    if (check_header(r, &c->header, sizeof *c, "anycall", i) ||
        check_name(r, &c->name, "an anycall's entry name") ||
        check_name(r, &c->domain, "an anycall's domain") ||
        check_ref(r, &c->stub, 1, 0, "an anycall's stub") ||
        check_signature(r, &c->signature, "an anycall"))
      return -1;
    uintptr_t stub = (uintptr_t)metadata_ref(&c->stub);
    if (!in_code(r->info, stub, 1))
      return fail(r->err, r->errlen,
                  "the anycall stub of '%s' is not in code (%#lx)",
                  (const char *)metadata_ref(&c->name), (unsigned long)stub);
  }
  return 0;
}

static int check_grants(struct reader *r, const struct record_array *a) {
  for (size_t i = 0; i < a->count; ++i) {
    const struct dipc_grant_record *g =
        METADATA_RECORD(*a, struct dipc_grant_record, i);
    if (check_header(r, &g->header, sizeof *g, "grant", i) ||
        check_name(r, &g->from, "a grant's domain") ||
        check_name(r, &g->to, "a granted domain"))
      return -1;
    if (!DIPC_PERM_GRANTABLE(g->perm))
      return fail(r->err, r->errlen, "grant record %zu has permission %u", i,
                  g->perm);
  }
  return 0;
}

/* Maps the object's file read-only to read its section headers. */
static int map_file(const char *path, const uint8_t **data, size_t *size,
                    char *err, size_t errlen) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fail(err, errlen, "cannot open: %s", strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(ElfW(Ehdr))) {
    close(fd);
    return fail(err, errlen, "not an ELF file");
  }
  void *p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (p == MAP_FAILED)
    return fail(err, errlen, "cannot map: %s", strerror(errno));
  *data = p;
  *size = st.st_size;
  return 0;
}

/* Sets *array to the section called name, 0 entries if absent. */
static int find_section(struct reader *r, const uint8_t *file, size_t fsize,
                        const ElfW(Ehdr) *eh, const char *name,
                        size_t record_size, struct record_array *array) {
  const ElfW(Shdr) *sh = (const ElfW(Shdr) *)(file + eh->e_shoff);
  const ElfW(Shdr) *strtab = &sh[eh->e_shstrndx];
  array->first = NULL;
  array->count = 0;
  for (unsigned i = 0; i < eh->e_shnum; ++i) {
    if (sh[i].sh_name >= strtab->sh_size)
      return fail(r->err, r->errlen, "section %u has a bad name", i);
    const char *sname = (const char *)file + strtab->sh_offset + sh[i].sh_name;
    size_t room = strtab->sh_size - sh[i].sh_name;
    if (strnlen(sname, room) == room || strcmp(sname, name) != 0)
      continue;
    if (!(sh[i].sh_flags & SHF_ALLOC) || sh[i].sh_size % record_size)
      return fail(r->err, r->errlen,
                  "section %s is not an array of %zu-byte records", name,
                  record_size);
    uintptr_t addr = r->info->dlpi_addr + sh[i].sh_addr;
    if (sh[i].sh_size && !in_segments(r->info, addr, sh[i].sh_size))
      return fail(r->err, r->errlen, "section %s is not loaded", name);
    array->first = (const void *)addr;
    array->count = sh[i].sh_size / record_size;
    return 0;
  }
  (void)fsize;
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

  const uint8_t *file = NULL;
  size_t fsize = 0;
  if (map_file(path, &file, &fsize, err, errlen))
    return -1;
  struct reader r = {info, err, errlen};
  const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)file;
  int status = 0;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
      eh->e_ident[EI_CLASS] != ELFCLASS64 ||
      eh->e_shentsize != sizeof(ElfW(Shdr)) || eh->e_shoff > fsize ||
      eh->e_shnum > (fsize - eh->e_shoff) / sizeof(ElfW(Shdr)) ||
      eh->e_shstrndx >= eh->e_shnum) {
    status = fail(err, errlen, "malformed ELF header or section table");
  } else {
    const ElfW(Shdr) *strtab =
        (const ElfW(Shdr) *)(file + eh->e_shoff) + eh->e_shstrndx;
    if (strtab->sh_offset > fsize || strtab->sh_size > fsize - strtab->sh_offset)
      status = fail(err, errlen, "malformed section name table");
  }
  if (status == 0)
    status = find_section(&r, file, fsize, eh, DIPC_DOMAINS_SECTION,
                          sizeof(struct dipc_domain_record), &out->domains) ||
             find_section(&r, file, fsize, eh, DIPC_ENTRIES_SECTION,
                          sizeof(struct dipc_entry_record), &out->entries) ||
             find_section(&r, file, fsize, eh, DIPC_IMPORTS_SECTION,
                          sizeof(struct dipc_import_record), &out->imports) ||
             find_section(&r, file, fsize, eh, DIPC_GRANTS_SECTION,
                          sizeof(struct dipc_grant_record), &out->grants) ||
             find_section(&r, file, fsize, eh, DIPC_ANYCALLS_SECTION,
                          sizeof(struct dipc_anycall_record), &out->anycalls)
                 ? -1
                 : 0;
  munmap((void *)file, fsize);
  if (status)
    return -1;
  if (check_domains(&r, &out->domains) || check_entries(&r, &out->entries) ||
      check_imports(&r, &out->imports) || check_grants(&r, &out->grants) ||
      check_anycalls(&r, &out->anycalls))
    return -1;
  return out->domains.count + out->entries.count + out->imports.count +
                 out->grants.count + out->anycalls.count >
             0;
}

int metadata_file_has_records(const char *path, char *err, size_t errlen) {
  const uint8_t *file = NULL;
  size_t fsize = 0;
  if (map_file(path, &file, &fsize, err, errlen))
    return -1;
  const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)file;
  int found = -1;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
      eh->e_ident[EI_CLASS] != ELFCLASS64 ||
      eh->e_shentsize != sizeof(ElfW(Shdr)) || eh->e_shoff > fsize ||
      eh->e_shnum > (fsize - eh->e_shoff) / sizeof(ElfW(Shdr)) ||
      eh->e_shstrndx >= eh->e_shnum) {
    fail(err, errlen, "malformed ELF header or section table");
  } else {
    const ElfW(Shdr) *sh = (const ElfW(Shdr) *)(file + eh->e_shoff);
    const ElfW(Shdr) *strtab = &sh[eh->e_shstrndx];
    if (strtab->sh_offset > fsize ||
        strtab->sh_size > fsize - strtab->sh_offset) {
      fail(err, errlen, "malformed section name table");
    } else {
      found = 0;
      for (unsigned i = 0; !found && i < eh->e_shnum; ++i) {
        if (sh[i].sh_name >= strtab->sh_size)
          continue;
        const char *sname =
            (const char *)file + strtab->sh_offset + sh[i].sh_name;
        size_t room = strtab->sh_size - sh[i].sh_name;
        /* The record sections, and the import slots. */
        for (unsigned k = 0; k <= DIPC_NUM_RECORD_KINDS; ++k) {
          const char *name = k < DIPC_NUM_RECORD_KINDS
                                 ? dipc_record_info_of(k)->section
                                 : DIPC_SLOTS_SECTION;
          if (strnlen(sname, room) < room && strcmp(sname, name) == 0)
            found = 1;
        }
      }
    }
  }
  munmap((void *)file, fsize);
  return found;
}
