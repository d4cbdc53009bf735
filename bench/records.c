/* records.c - reads this executable's dIPC import records (records.h). */
#include "records.h"

#include <dipc/metadata.h>

#include <stddef.h>
#include <string.h>

/* Weak: a section the compiler did not emit reads as empty. */
extern const char __start_dipc_imports[] __attribute__((weak));
extern const char __stop_dipc_imports[] __attribute__((weak));

static const void *resolve(const dipc_rel_t *field) {
  return *field ? (const char *)field + *field : NULL;
}

void **bench_import_slot(const char *name) {
  const char *cursor = __start_dipc_imports;
  while (cursor &&
         cursor + sizeof(struct dipc_record_header) <= __stop_dipc_imports) {
    const struct dipc_record_header *header = (const void *)cursor;
    if (header->size < sizeof *header || cursor + header->size > __stop_dipc_imports)
      return NULL;
    cursor += header->size;
    if (header->version != DIPC_METADATA_VERSION ||
        header->size != sizeof(struct dipc_import_record))
      continue;
    const struct dipc_import_record *import = (const void *)header;
    if (strcmp(resolve(&import->name), name) == 0)
      return (void **)resolve(&import->slot);
  }
  return NULL;
}
