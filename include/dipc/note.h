/* note.h - what ties an object's records to the object, beyond the record
 * sections themselves (validate/validate.h checks both):
 *
 *  - the dIPC note, one per translation unit with records, in a PT_NOTE
 *    segment. It anchors the records where section headers cannot be
 *    trusted: an object with the note must have valid records, so damaged
 *    section headers or names make the loader refuse the object instead
 *    of running it unisolated. It counts the unit's records, so that a
 *    record section cut short is refused, and seals what the compiler
 *    knows of them (below);
 *  - the back-link before every callee stub, so that an entry record whose
 *    stub reference was moved elsewhere in its domain's code is refused.
 *
 * The seal and the back-link detect damaged or inconsistent metadata; they
 * are not signatures (anyone can recompute them). */
#ifndef DIPC_NOTE_H
#define DIPC_NOTE_H

#include <stddef.h>
#include <stdint.h>

#define DIPC_NOTE_SECTION ".note.dipc"
#define DIPC_NOTE_NAME "dipc" /* n_namesz 5, padded to 8 */
#define DIPC_NOTE_TYPE_RECORDS 1

/* The note's descriptor. The linker concatenates the translation units'
 * record sections and notes in the same (input) order, so the notes cut
 * each record section into the units' runs of records. Anycall records
 * are not sealed: they sit in their stub's comdat, and the linker keeps
 * one copy of several, so an object holds between the largest unit's
 * count and the sum of them. */
struct dipc_note_records {
  uint32_t version; /* DIPC_METADATA_VERSION */
  uint32_t domains;
  uint32_t entries;
  uint32_t imports;
  uint32_t grants;
  uint32_t anycalls; /* before the linker drops comdat copies */
  uint64_t seal;     /* dipc_seal of the unit's records, in that order */
};

/* The seal: FNV-1a (64 bits) over every record of the unit, kind by kind
 * (domains, entries, imports, grants), field by field in records.def order,
 * of what the compiler knows of each field: a name's bytes with its NUL;
 * for a reference to code, a slot or a range, whether it is set (one byte
 * per reference: the address is the linker's); every other field's bytes
 * as they are in the record. */
#define DIPC_SEAL_BASIS 0xcbf29ce484222325ull

static inline uint64_t dipc_seal(uint64_t seal, const void *bytes, size_t n) {
  const unsigned char *b = (const unsigned char *)bytes;
  for (size_t i = 0; i < n; ++i) {
    seal ^= b[i];
    seal *= 0x100000001b3ull;
  }
  return seal;
}

/* The back-link: the 16 bytes before a callee stub's first instruction
 * (LLVM prefix data) hold DIPC_STUB_MAGIC and, self-relative, the address
 * of the entry record that names the stub. Sixteen bytes keep the stub
 * aligned. */
#define DIPC_STUB_MAGIC 0x6b6e696c43504964ull /* "dIPClink" */
#define DIPC_STUB_BACKLINK_SIZE 16

#endif /* DIPC_NOTE_H */
