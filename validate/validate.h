/* validate.h - the one validator of the dIPC contract (include/dipc/
 * metadata.h, docs/abi.md): the loader runs it on every object before it
 * uses a record, dipc-readelf before it prints one, so the two accept and
 * refuse exactly the same files. It reads the object's file only.
 *
 * Rules, each named in the message of a refusal ("<record> <i> ('<name>'):
 * <field>: <rule>"):
 *  - the ELF file, its segments, section headers and names are well formed
 *    (elf_image.h); a record section is loaded data whose address and file
 *    offset agree with its segment, a whole number of records;
 *  - fail closed: an object with the dIPC note (note.h) or any section of
 *    the contract (record, slot or domain section) must have a readable,
 *    non-empty domain table, no unknown dipc_ section, and as many records
 *    as its notes count;
 *  - every record has this version and size, zero reserved fields, only
 *    known flag and policy bits, a possible signature (signature.h) and a
 *    permission of call, read or write;
 *  - every name is a NUL-terminated identifier of 1..DIPC_MAX_NAME_LEN
 *    characters in the object's loaded bytes;
 *  - a domain's range of each kind is exactly its section
 *    dipc_<kind>_<name>, starts on a page and shares no page with any
 *    other section (DESIGN §5), and every such section has its record;
 *  - an entry's stub and function lie in its domain's code; entry names
 *    are unique;
 *  - an import's slot is an aligned, writable, non-RELRO pointer in the
 *    memory of its calling domain (dipc_slots for the default domain, the
 *    domain's dipc_data_ pages otherwise), and records sharing a slot agree
 *    on every field;
 *  - an anycall stub lies in shared code (outside every named domain);
 *  - a grant's receiving domain has a record in the object. */
#ifndef DIPC_VALIDATE_H
#define DIPC_VALIDATE_H

#include <dipc/metadata.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Longest domain or entry name. */
#define DIPC_MAX_NAME_LEN 255


/* Where one kind's records (enum dipc_record_kind, records.def) are: in the file and in memory (add the load
 * bias), and how many. */
struct dipc_record_table {
  uint64_t vaddr;
  const uint8_t *bytes; /* in the file image */
  size_t count;
};

struct dipc_validated {
  struct dipc_record_table tables[DIPC_NUM_RECORD_KINDS];
  /* Translation units with records (dIPC notes), and how many of them
   * were compiled with -fdipc-sfi (dipc/sfi.h). */
  unsigned units, sfi_units;
  /* With -fdipc-sfi units: 1 if their code holds DIPC_SFI_CALL_MAGIC
   * elsewhere than right before a function (sfi_magic.h), the first such
   * site at sfi_magic_at. */
  int sfi_magic_stray;
  uint64_t sfi_magic_at;
  /* With -fdipc-sfi units: 1 if a function of the object is defined under
   * one of the runtime's names (sfi_names.h), that name. */
  int sfi_runtime_name;
  char sfi_runtime_name_at[64];
};

/* The loader's words for a stray magic (dipc_validated.sfi_magic_stray),
 * with the site's address. */
#define DIPC_SFI_MAGIC_STRAY_FMT                                               \
  "its code holds the sfi call magic at %#llx, where no function starts "      \
  "after it: an indirect call there would pass the check (a constant of "      \
  "the source holds these bytes: change it; a -fdipc-sfi object must also "    \
  "keep its symbol table)"

/* Validates the records of the object in img. Returns 1 if it has valid
 * records, 0 if it is no dIPC object (no note and no dipc_ section), -1
 * with the rule it breaks in err. */
struct dipc_elf_image; /* elf_image.h */
int dipc_validate(const struct dipc_elf_image *img, struct dipc_validated *out,
                  char *err, size_t errlen);

/* Reads the file at path into a private copy in *img and validates it: as
 * above, plus -1 if it cannot be read. Unless the result is -1, the tables
 * point into the copy until dipc_validate_close(img). */
int dipc_validate_file(const char *path, struct dipc_elf_image *img,
                       struct dipc_validated *out, char *err, size_t errlen);

/* Unmaps what dipc_validate_file mapped. */
void dipc_validate_close(struct dipc_elf_image *img);

/* dipc_validate_file and close: 1, 0 or -1 as above (for tools that only
 * need the verdict, without <elf.h>). */
int dipc_validate_path(const char *path, char *err, size_t errlen);


#ifdef __cplusplus
}
#endif

#endif
