/* records.c - reads this executable's dIPC ELF records (see records.h and
 * include/dipc/metadata.h). */
#include "records.h"

#include <dipc/metadata.h>

#include <stdint.h>
#include <string.h>

/* Weak: a section the compiler did not emit reads as empty. */
extern const char __start_dipc_domains[] __attribute__((weak));
extern const char __stop_dipc_domains[] __attribute__((weak));
extern const char __start_dipc_entries[] __attribute__((weak));
extern const char __stop_dipc_entries[] __attribute__((weak));
extern const char __start_dipc_imports[] __attribute__((weak));
extern const char __stop_dipc_imports[] __attribute__((weak));

static const void *resolve(const dipc_rel_t *field) {
  return *field ? (const char *)field + *field : NULL;
}

/* The next record of [*cursor, end) that is well formed, or NULL. */
static const struct dipc_record_header *next_record(const char **cursor,
                                                    const char *end,
                                                    uint32_t size) {
  while (*cursor && *cursor + sizeof(struct dipc_record_header) <= end) {
    const struct dipc_record_header *header =
        (const struct dipc_record_header *)*cursor;
    if (header->size < sizeof *header || *cursor + header->size > end)
      return NULL;
    *cursor += header->size;
    if (header->version == DIPC_METADATA_VERSION && header->size == size)
      return header;
  }
  return NULL;
}

static int same_signature(const struct dipc_signature *a,
                          const struct dipc_signature *b) {
  return a->int_args == b->int_args && a->vec_args == b->vec_args &&
         a->int_results == b->int_results &&
         a->vec_results == b->vec_results && a->stack_bytes == b->stack_bytes;
}

int bench_find_entry(const char *name, struct bench_entry_info *out) {
  const struct dipc_entry_record *entry = NULL;
  const struct dipc_import_record *import = NULL;
  const char *cursor = __start_dipc_entries;
  const struct dipc_record_header *h;
  while (!entry && (h = next_record(&cursor, __stop_dipc_entries,
                                    sizeof(struct dipc_entry_record)))) {
    const struct dipc_entry_record *r = (const void *)h;
    if (strcmp(resolve(&r->name), name) == 0)
      entry = r;
  }
  cursor = __start_dipc_imports;
  while (!import && (h = next_record(&cursor, __stop_dipc_imports,
                                     sizeof(struct dipc_import_record)))) {
    const struct dipc_import_record *r = (const void *)h;
    if (strcmp(resolve(&r->name), name) == 0)
      import = r;
  }
  if (!entry || !import || !same_signature(&entry->signature, &import->signature))
    return -1;
  out->callee_stub = (void *)resolve(&entry->callee_stub);
  out->signature = entry->signature;
  out->callee_policy = entry->callee_policy;
  out->slot = (void **)resolve(&import->slot);
  out->caller_policy = import->caller_policy;
  return 0;
}

int bench_domain_pages(const char *domain, char *begin[3], char *end[3]) {
  const char *cursor = __start_dipc_domains;
  const struct dipc_record_header *h;
  while ((h = next_record(&cursor, __stop_dipc_domains,
                          sizeof(struct dipc_domain_record)))) {
    const struct dipc_domain_record *r = (const void *)h;
    if (strcmp(resolve(&r->name), domain) != 0)
      continue;
    for (int kind = 0; kind < DIPC_NUM_SECTION_KINDS; ++kind) {
      char *b = (char *)resolve(&r->ranges[kind][0]);
      char *e = (char *)resolve(&r->ranges[kind][1]);
      /* The section ends with a guard shorter than a page (metadata.h). */
      e = (char *)((uintptr_t)e & ~(uintptr_t)(DIPC_PAGE_SIZE - 1));
      begin[kind] = b;
      end[kind] = b && e > b ? e : b;
    }
    return 0;
  }
  return -1;
}
