/* metadata.h - finds and verifies the dIPC records of one loaded object. */
#ifndef DIPC_LOADER_METADATA_H
#define DIPC_LOADER_METADATA_H

#include <dipc/abi.h> /* DIPC_EXIT_REFUSED */
#include <dipc/metadata.h>
#include <link.h>
#include <stddef.h>

struct record_array {
  const void *first; /* in memory */
  size_t count;
};

struct object_metadata {
  char path[4096];
  uintptr_t base; /* load bias */
  struct record_array domains, entries, imports, grants, anycalls;
};

/* Reads the section headers of the object behind `info` from its file and
 * verifies every record in memory: version, sizes, references inside the
 * object's loaded segments, NUL-terminated names, page-aligned domain
 * ranges. Returns 1 if the object has dIPC records, 0 if it has none, and
 * -1 after writing the reason into err. */
int metadata_read(const struct dl_phdr_info *info, struct object_metadata *out,
                  char *err, size_t errlen);

/* Whether the ELF file at path has a dIPC record section (any section
 * named in dipc/metadata.h), from its section headers alone: 1, 0, or -1
 * if it cannot be read as ELF (reason in err). */
int metadata_file_has_records(const char *path, char *err, size_t errlen);

/* Resolves a verified self-relative reference. */
static inline const void *metadata_ref(const dipc_rel_t *field) {
  return *field ? (const char *)field + *field : NULL;
}

#define METADATA_RECORD(array, type, i)                                       \
  ((const type *)((const char *)(array).first + (i) * sizeof(type)))

#endif
