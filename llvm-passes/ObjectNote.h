// ObjectNote.h - emits the dIPC note (include/dipc/note.h) of a module with
// records: the anchor that makes a loader refuse, rather than run
// unisolated, an object whose record sections it cannot find.
#ifndef DIPC_PASS_OBJECTNOTE_H
#define DIPC_PASS_OBJECTNOTE_H

#include "dipc/metadata.h"
#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <string>

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

// The note of the functions a unit calls with pointers whose tags only are
// checked (dipc/sfi.h, DIPC_SFI_CALLS_NOTE_NAME); none if Names is empty.
void emitCallsNote(llvm::Module &M, llvm::ArrayRef<std::string> Names);

} // namespace dipc

#endif
