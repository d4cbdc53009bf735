/* metadata.h - finds and verifies the dIPC records of one loaded object. */
#ifndef DIPC_LOADER_METADATA_H
#define DIPC_LOADER_METADATA_H

#include <dipc/limits.h> /* DIPC_EXIT_REFUSED */
#include <dipc/metadata.h>
#include "elf_image.h"
#include "validate.h"
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

/* Validates the file of the object behind `info` (validate.h) and checks
 * that its loaded segments and record sections are the file's. Returns 1
 * if the object has dIPC records, 0 if it is no dIPC object, and -1 after
 * writing the reason (the record and the rule) into err. */
int metadata_read(const struct dl_phdr_info *info, struct object_metadata *out,
                  char *err, size_t errlen);

/* Resolves a verified self-relative reference. */
static inline const void *metadata_ref(const dipc_rel_t *field) {
  return *field ? (const char *)field + *field : NULL;
}

#define METADATA_RECORD(array, type, i)                                       \
  ((const type *)((const char *)(array).first + (i) * sizeof(type)))

#endif
