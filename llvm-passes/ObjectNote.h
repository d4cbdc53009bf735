// ObjectNote.h - emits the dIPC note (include/dipc/note.h) of a module with
// records: the anchor that makes a loader refuse, rather than run
// unisolated, an object whose record sections it cannot find.
#ifndef DIPC_PASS_OBJECTNOTE_H
#define DIPC_PASS_OBJECTNOTE_H

#include "dipc/metadata.h"
#include <cstdint>

namespace llvm {
class Module;
}

namespace dipc {

// Adds the note of a module whose records are written: how many of each
// kind (enum dipc_record_kind) and their seal.
void emitObjectNote(llvm::Module &M,
                    const unsigned (&Count)[DIPC_NUM_RECORD_KINDS],
                    uint64_t Seal);

// Marks the unit's note (if it has records) as compiled with -fdipc-sfi:
// type DIPC_NOTE_TYPE_RECORDS_SFI (include/dipc/sfi.h); false if there is
// no note or it was marked already.
bool markNoteSfi(llvm::Module &M);

} // namespace dipc

#endif
