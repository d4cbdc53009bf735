// CallerStubs.h - rewrites calls from one domain to an entry of another into
// inline caller stubs that call the entry's proxy through an import slot,
// and makes every address of an entry its anycall stub.
#ifndef DIPC_PASS_CALLERSTUBS_H
#define DIPC_PASS_CALLERSTUBS_H

#include "DomainModel.h"
#include "Signature.h"
#include <string>
#include <vector>

namespace llvm {
class GlobalVariable;
} // namespace llvm

namespace dipc {

enum class Recovery { SetJmp, Try };

// A foreign entry used by one domain of this module under one policy.
struct Import {
  llvm::Function *Entry;
  std::string CallerDomain;
  dipc_policy_t CallerPolicy;
  llvm::GlobalVariable *Slot;
  CallShape Shape;
  llvm::Function *Thunk = nullptr;
};

// An entry whose address this module takes, and its anycall stub.
struct Anycall {
  llvm::Function *Entry;
  llvm::Function *Stub;
  CallShape Shape;
};

// Rewrites every cross-domain call and every address use of an entry in
// `M`. Thunks it creates are added to `Model` in their caller's domain;
// anycall stubs are shared code. Returns false after reporting an error.
bool lowerCrossDomainUses(llvm::Module &M, DomainModel &Model, Recovery Style,
                          std::vector<Import> &Imports,
                          std::vector<Anycall> &Anycalls);

// A frame pointer pins rbp, which the stub's clobber list then cannot
// protect: true when `F` needs one whatever its "frame-pointer" attribute.
bool needsFramePointer(const llvm::Function &F);

// Attributes a function carrying an inline caller stub must have: no frame
// pointer (so rbp is an allocatable, clobberable register) and no red zone.
void prepareStubCarrier(llvm::Function &F);

} // namespace dipc

#endif
