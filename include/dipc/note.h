/* note.h - the ELF note every object compiled with dIPC records carries
 * (one per translation unit, in a PT_NOTE segment). It anchors the
 * records where section headers cannot be trusted: an object with the note
 * must have valid records, so damaged section headers or names make the
 * loader refuse the object instead of running it unisolated; and its counts
 * let the validator tell a record section cut short. */
#ifndef DIPC_NOTE_H
#define DIPC_NOTE_H

#include <stdint.h>

#define DIPC_NOTE_SECTION ".note.dipc"
#define DIPC_NOTE_NAME "dipc" /* n_namesz 5, padded to 8 */
#define DIPC_NOTE_TYPE_RECORDS 1

/* The note's descriptor: how many records of each kind the translation
 * unit emitted (anycall records are left out: they sit in their stub's
 * comdat, and the linker keeps one of the copies). */
struct dipc_note_records {
  uint32_t version; /* DIPC_METADATA_VERSION */
  uint32_t domains;
  uint32_t entries;
  uint32_t imports;
  uint32_t grants;
};

#endif /* DIPC_NOTE_H */
