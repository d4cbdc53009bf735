// CalleeStubs.h - a callee stub for every entry defined in the module: the
// address proxies jump to.
#ifndef DIPC_PASS_CALLEESTUBS_H
#define DIPC_PASS_CALLEESTUBS_H

#include "DomainModel.h"
#include "Signature.h"
#include <vector>

namespace dipc {

struct EntryStub {
  llvm::Function *Entry;
  llvm::Function *Stub;
  CallShape Shape;
};

// Creates the stubs (in their entry's domain) and appends them to `Stubs`.
// Returns false after reporting an entry whose signature a proxy cannot
// carry.
bool buildCalleeStubs(llvm::Module &M, DomainModel &Model,
                      std::vector<EntryStub> &Stubs);

} // namespace dipc

#endif
