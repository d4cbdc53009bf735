/* metadata.h - the ELF records the compiler emits for every -fdipc object
 * and the loader (and dipc-readelf) read back. Shared by C (loader/) and
 * C++ (llvm-passes/, tools/).
 *
 * Each record kind lives in a section of its own, named as a C identifier so
 * that __start_<name>/__stop_<name> exist; a section is an array of records,
 * each 8-byte aligned, each starting with a dipc_record_header. Records are
 * kept with llvm.used (SHF_GNU_RETAIN), so lld's --gc-sections keeps them.
 *
 * References are self-relative (dipc_rel_t): the target's address minus the
 * address of the field itself, 0 for "none". They need no dynamic
 * relocation, and read the same in the file and in memory:
 *   target = (const char *)&record->field + record->field
 *
 * Domain layout: the code and data of domain D are in sections
 * dipc_text_D, dipc_rodata_D, dipc_data_D and dipc_bss_D (zero-initialised
 * variables, SHT_NOBITS). Every object's
 * part of such a section starts on a page and ends with a page-aligned guard
 * shorter than a page, so the domain's pages are
 *   [__start_<section>, __stop_<section> rounded down to DIPC_PAGE_SIZE)
 * and no other domain's code or data shares them. The program's default
 * domain ("default", DIPC_DOMAIN_DEFAULT) is everything else.
 */
#ifndef DIPC_METADATA_H
#define DIPC_METADATA_H

#include <stddef.h>
#include <stdint.h>

#include "dipc/perm.h"
#include "dipc/signature.h"

#define DIPC_METADATA_VERSION 1
#define DIPC_PAGE_SIZE 4096

/* Record sections (records.def says which record kind each holds). */
#define DIPC_DOMAINS_SECTION "dipc_domains"
#define DIPC_ENTRIES_SECTION "dipc_entries"
#define DIPC_IMPORTS_SECTION "dipc_imports"
#define DIPC_GRANTS_SECTION "dipc_grants"
/* Import slots: one pointer per (caller domain, caller policy, entry) per
 * object, initially &__dipc_unresolved_import; the loader stores the proxy. */
#define DIPC_SLOTS_SECTION "dipc_slots"
/* The names the records refer to, each NUL-terminated; a reference points
 * at the start of one. */
#define DIPC_NAMES_SECTION "dipc_names"
/* What every slot initially points to (rt/unresolved.c). */
#define DIPC_UNRESOLVED_IMPORT_SYMBOL "__dipc_unresolved_import"
#define DIPC_ANYCALLS_SECTION "dipc_anycalls"

/* Name of the domain of unannotated code and data. */
#define DIPC_DEFAULT_DOMAIN "default"

typedef int64_t dipc_rel_t;

struct dipc_record_header {
  uint32_t version; /* DIPC_METADATA_VERSION */
  uint32_t size; /* bytes of the whole record: sizeof(struct dipc_*_record) */
};

/* The kinds of a domain's sections, in dipc_domain_record.ranges order:
 * X(CONSTANT, name), the section of kind K of domain D being dipc_K_D. */
#define DIPC_SECTION_KINDS(X)                                                  \
  X(TEXT, text)                                                                \
  X(RODATA, rodata)                                                            \
  X(DATA, data)                                                                \
  X(BSS, bss) /* zero-initialised data: zero-fill, no file bytes */

enum dipc_section_kind {
#define DIPC_SECTION_KIND_ENUMERATOR(CONSTANT, name) DIPC_SECTION_##CONSTANT,
  DIPC_SECTION_KINDS(DIPC_SECTION_KIND_ENUMERATOR)
#undef DIPC_SECTION_KIND_ENUMERATOR
  DIPC_NUM_SECTION_KINDS
};

/* "text", "rodata" ...; "?" for a value that is no kind. */
static inline const char *dipc_section_kind_name(unsigned kind) {
#define DIPC_SECTION_KIND_NAME(CONSTANT, name) #name,
  static const char *const names[] = {
      DIPC_SECTION_KINDS(DIPC_SECTION_KIND_NAME)};
#undef DIPC_SECTION_KIND_NAME
  return kind < DIPC_NUM_SECTION_KINDS ? names[kind] : "?";
}

#define DIPC_DOMAIN_DEFAULT 0x1u /* the default domain: has no ranges */
#define DIPC_DOMAIN_FLAGS DIPC_DOMAIN_DEFAULT /* every defined flag */

/* ---- the records: include/dipc/records.def ------------------------------ */

/* The types of record fields (the TYPE column of records.def): X(TYPE,
 * rule), the rule a reader checks a field of that type by. */
#define DIPC_FIELD_TYPES(X)                                                    \
  X(HEADER, "version DIPC_METADATA_VERSION and the record's size")             \
  X(NAME, "reference to a NUL-terminated name in the object, never 0")         \
  X(CODE, "reference to code of the object, never 0")                          \
  X(SLOT, "reference to a pointer in writable data of the object, never 0")    \
  X(RANGES, "per section kind, two references, both 0 or neither")             \
  X(FLAGS, "DIPC_DOMAIN_* bits, no other")                                     \
  X(PERM, "enum dipc_perm: call, read or write")                               \
  X(SIGNATURE, "within the limits of dipc/signature.h (DIPC_SIGNATURE_OK)")    \
  X(POLICY, "a mask of enum dipc_iso_property bits")                           \
  X(RESERVED, "0")

enum dipc_field_type {
#define DIPC_FIELD_TYPE_ENUMERATOR(TYPE, rule) DIPC_FIELD_##TYPE,
  DIPC_FIELD_TYPES(DIPC_FIELD_TYPE_ENUMERATOR)
#undef DIPC_FIELD_TYPE_ENUMERATOR
};

/* The C type of a field of each type:
 *   DIPC_CTYPE_<TYPE> NAME DIPC_DIMS_<TYPE>; */
#define DIPC_CTYPE_HEADER struct dipc_record_header
#define DIPC_DIMS_HEADER
#define DIPC_CTYPE_NAME dipc_rel_t
#define DIPC_DIMS_NAME
#define DIPC_CTYPE_CODE dipc_rel_t
#define DIPC_DIMS_CODE
#define DIPC_CTYPE_SLOT dipc_rel_t
#define DIPC_DIMS_SLOT
#define DIPC_CTYPE_RANGES dipc_rel_t
#define DIPC_DIMS_RANGES [DIPC_NUM_SECTION_KINDS][2]
#define DIPC_CTYPE_FLAGS uint32_t
#define DIPC_DIMS_FLAGS
#define DIPC_CTYPE_PERM uint32_t
#define DIPC_DIMS_PERM
#define DIPC_CTYPE_SIGNATURE struct dipc_signature
#define DIPC_DIMS_SIGNATURE
#define DIPC_CTYPE_POLICY dipc_policy_t
#define DIPC_DIMS_POLICY
#define DIPC_CTYPE_RESERVED uint32_t
#define DIPC_DIMS_RESERVED

/* struct dipc_domain_record, dipc_entry_record, dipc_import_record,
 * dipc_anycall_record, dipc_grant_record. */
#define DIPC_RECORD(KIND, SECTION, SIZE, DOC) struct dipc_##KIND##_record {
#define DIPC_FIELD(KIND, NAME, TYPE, OFFSET, DOC)                              \
  DIPC_CTYPE_##TYPE NAME DIPC_DIMS_##TYPE;
#define DIPC_RECORD_END(KIND) };
#include "dipc/records.def"

/* The layout records.def gives: each field at its offset, no padding,
 * each record of its size. */
#ifdef __cplusplus
#define DIPC_STATIC_ASSERT static_assert
#else
#define DIPC_STATIC_ASSERT _Static_assert
#endif
/* A SIGNATURE field: dipc/signature.h lists its members. */
DIPC_STATIC_ASSERT(sizeof(struct dipc_signature) == 8,
                   "dipc/signature.h: a signature has 8 bytes");
#define DIPC_FIELD_SIZE(KIND, NAME)                                            \
  sizeof(((struct dipc_##KIND##_record *)0)->NAME)
#define DIPC_RECORD(KIND, SECTION, SIZE, DOC)                                  \
  DIPC_STATIC_ASSERT(sizeof(struct dipc_##KIND##_record) == SIZE,              \
                     "records.def: record " #KIND " has " #SIZE " bytes");
#define DIPC_FIELD(KIND, NAME, TYPE, OFFSET, DOC)                              \
  DIPC_STATIC_ASSERT(offsetof(struct dipc_##KIND##_record, NAME) == OFFSET,    \
                     "records.def: record " #KIND " field " #NAME              \
                     " is at offset " #OFFSET);
#include "dipc/records.def"
#define DIPC_RECORD(KIND, SECTION, SIZE, DOC) DIPC_STATIC_ASSERT(SIZE == 0
#define DIPC_FIELD(KIND, NAME, TYPE, OFFSET, DOC) +DIPC_FIELD_SIZE(KIND, NAME)
#define DIPC_RECORD_END(KIND)                                                  \
  , "records.def: record " #KIND " has padding between its fields");
#include "dipc/records.def"

enum dipc_record_kind {
#define DIPC_RECORD(KIND, SECTION, SIZE, DOC) DIPC_RECORD_KIND_##KIND,
#include "dipc/records.def"
  DIPC_NUM_RECORD_KINDS
};

/* A field of a record, for readers that check or print records field by
 * field and name the field they refuse ("record import field slot"). */
struct dipc_field_info {
  const char *name; /* "slot" */
  enum dipc_field_type type;
  uint32_t offset, size;
  const char *doc;
};

struct dipc_record_info {
  const char *kind;    /* "import" */
  const char *section; /* DIPC_IMPORTS_SECTION */
  uint32_t size;       /* sizeof(struct dipc_import_record) */
  uint32_t num_fields;
  const struct dipc_field_info *fields; /* in file order */
};

/* The record kind `kind` (enum dipc_record_kind) as records.def defines it,
 * NULL for no kind. */
static inline const struct dipc_record_info *
dipc_record_info_of(unsigned kind) {
#define DIPC_RECORD(KIND, SECTION, SIZE, DOC)                                  \
  static const struct dipc_field_info KIND##_fields[] = {
#define DIPC_FIELD(KIND, NAME, TYPE, OFFSET, DOC)                              \
  {#NAME, DIPC_FIELD_##TYPE, OFFSET, DIPC_FIELD_SIZE(KIND, NAME), DOC},
#define DIPC_RECORD_END(KIND) };
#include "dipc/records.def"
  static const struct dipc_record_info records[] = {
#define DIPC_RECORD(KIND, SECTION, SIZE, DOC)                                  \
  {#KIND, SECTION, SIZE, sizeof KIND##_fields / sizeof KIND##_fields[0],       \
   KIND##_fields},
#include "dipc/records.def"
  };
  return kind < DIPC_NUM_RECORD_KINDS ? &records[kind] : 0;
}

/* The field of a record of kind `kind` that holds byte `offset`, NULL if
 * none does. */
static inline const struct dipc_field_info *
dipc_record_field_at(unsigned kind, size_t offset) {
  const struct dipc_record_info *r = dipc_record_info_of(kind);
  for (uint32_t i = 0; r && i < r->num_fields; ++i)
    if (offset - r->fields[i].offset < r->fields[i].size)
      return &r->fields[i];
  return 0;
}

/* "HEADER", "NAME" ...; the rule of a field type. */
static inline const char *dipc_field_type_name(enum dipc_field_type type) {
#define DIPC_FIELD_TYPE_NAME(TYPE, rule) #TYPE,
  static const char *const names[] = {DIPC_FIELD_TYPES(DIPC_FIELD_TYPE_NAME)};
#undef DIPC_FIELD_TYPE_NAME
  return (unsigned)type < sizeof names / sizeof names[0] ? names[type] : "?";
}
static inline const char *dipc_field_type_rule(enum dipc_field_type type) {
#define DIPC_FIELD_TYPE_RULE(TYPE, rule) rule,
  static const char *const rules[] = {DIPC_FIELD_TYPES(DIPC_FIELD_TYPE_RULE)};
#undef DIPC_FIELD_TYPE_RULE
  return (unsigned)type < sizeof rules / sizeof rules[0] ? rules[type] : "?";
}

#endif /* DIPC_METADATA_H */
