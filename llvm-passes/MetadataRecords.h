// MetadataRecords.h - emits the ELF records of include/dipc/metadata.h:
// domains, entries, imports, anycalls and grants.
#ifndef DIPC_PASS_METADATARECORDS_H
#define DIPC_PASS_METADATARECORDS_H

#include "CalleeStubs.h"
#include "CallerStubs.h"
#include "DomainLayout.h"

namespace dipc {

void emitMetadataRecords(llvm::Module &M, const DomainModel &Model,
                         const DomainSections &Sections,
                         const std::vector<EntryStub> &Entries,
                         const std::vector<Import> &Imports,
                         const std::vector<Anycall> &Anycalls);

} // namespace dipc

#endif
