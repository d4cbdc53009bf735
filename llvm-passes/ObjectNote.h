// ObjectNote.h - emits the dIPC note (include/dipc/note.h) of a module with
// records: the anchor that makes a loader refuse, rather than run
// unisolated, an object whose record sections it cannot find.
#ifndef DIPC_PASS_OBJECTNOTE_H
#define DIPC_PASS_OBJECTNOTE_H

namespace llvm {
class Module;
}

namespace dipc {

// Counts the records already emitted into the module's record sections
// and adds the note. Call after emitMetadataRecords.
void emitObjectNote(llvm::Module &M);

} // namespace dipc

#endif
