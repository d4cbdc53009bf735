/* records.c - reads this executable's dIPC records (records.h). */
#include "records.h"

#include <dipc/metadata.h>

#include <stddef.h>
#include <string.h>

/* Weak: a section the compiler did not emit reads as empty. */
extern const char __start_dipc_imports[] __attribute__((weak));
extern const char __stop_dipc_imports[] __attribute__((weak));
extern const char __start_dipc_entries[] __attribute__((weak));
extern const char __stop_dipc_entries[] __attribute__((weak));

static const void *resolve(const dipc_rel_t *field) {
  return *field ? (const char *)field + *field : NULL;
}

/* The first record of `size` bytes in [begin, end) whose name field (at
 * the same offset in every record kind) is `name`, or NULL. */
static const void *find_record(const char *begin, const char *end,
                               size_t size, const char *name) {
  const char *cursor = begin;
  while (cursor && cursor + sizeof(struct dipc_record_header) <= end) {
    const struct dipc_record_header *header = (const void *)cursor;
    if (header->size < sizeof *header || cursor + header->size > end)
      return NULL;
    cursor += header->size;
    if (header->version != DIPC_METADATA_VERSION || header->size != size)
      continue;
    const dipc_rel_t *name_field =
        (const dipc_rel_t *)((const char *)header +
                             offsetof(struct dipc_import_record, name));
    if (strcmp(resolve(name_field), name) == 0)
      return header;
  }
  return NULL;
}

_Static_assert(offsetof(struct dipc_import_record, name) ==
                   offsetof(struct dipc_entry_record, name),
               "find_record reads both kinds' names at one offset");

void **bench_import_slot(const char *name) {
  const struct dipc_import_record *import =
      find_record(__start_dipc_imports, __stop_dipc_imports,
                  sizeof(struct dipc_import_record), name);
  return import ? (void **)resolve(&import->slot) : NULL;
}

void *bench_entry_callee_stub(const char *name) {
  const struct dipc_entry_record *entry =
      find_record(__start_dipc_entries, __stop_dipc_entries,
                  sizeof(struct dipc_entry_record), name);
  return entry ? (void *)resolve(&entry->callee_stub) : NULL;
}
