/* dump-records KIND FILE: prints the records in FILE (the bytes of a record
 * section, llvm-objcopy --dump-section) field by field, by the table
 * include/dipc/records.def makes: a test that the compiler writes each
 * field where the table says. References print as "ref" (nonzero) or 0. */
#include <dipc/metadata.h>
#include <stdio.h>
#include <string.h>

static void print_field(const char *rec, const struct dipc_field_info *f) {
  const char *p = rec + f->offset;
  uint32_t u32;
  dipc_rel_t rel;
  printf(" %s=", f->name);
  switch (f->type) {
  case DIPC_FIELD_HEADER: {
    struct dipc_record_header h;
    memcpy(&h, p, sizeof h);
    printf("%u,%u", h.version, h.size);
    break;
  }
  case DIPC_FIELD_NAME:
  case DIPC_FIELD_CODE:
  case DIPC_FIELD_SLOT:
    memcpy(&rel, p, sizeof rel);
    printf("%s", rel ? "ref" : "0");
    break;
  case DIPC_FIELD_RANGES:
    for (unsigned k = 0; k < DIPC_NUM_SECTION_KINDS * 2; ++k) {
      memcpy(&rel, p + k * sizeof rel, sizeof rel);
      printf("%s%s", k ? "," : "", rel ? "ref" : "0");
    }
    break;
  case DIPC_FIELD_SIGNATURE: {
    struct dipc_signature s;
    memcpy(&s, p, sizeof s);
    const char *sep = "{";
#define PRINT_MEMBER(type, field, limit)                                       \
  printf("%s" #field "=%u", sep, (unsigned)s.field), sep = ",";
    DIPC_SIGNATURE_FIELDS(PRINT_MEMBER)
    printf("}");
    break;
  }
  default: /* FLAGS, PERM, POLICY, RESERVED: a uint32_t */
    memcpy(&u32, p, sizeof u32);
    printf("%u", u32);
  }
}

int main(int argc, char **argv) {
  const struct dipc_record_info *info = NULL;
  for (unsigned k = 0; argc == 3 && k < DIPC_NUM_RECORD_KINDS; ++k)
    if (strcmp(dipc_record_info_of(k)->kind, argv[1]) == 0)
      info = dipc_record_info_of(k);
  FILE *f = info ? fopen(argv[2], "rb") : NULL;
  if (!f) {
    fprintf(stderr, "usage: dump-records KIND SECTION-BYTES\n");
    return 2;
  }
  char rec[256];
  for (unsigned i = 0; fread(rec, info->size, 1, f) == 1; ++i) {
    printf("%s[%u]", info->kind, i);
    for (unsigned j = 0; j < info->num_fields; ++j)
      print_field(rec, &info->fields[j]);
    printf("\n");
  }
  return 0;
}
