// DomainModel.h - the dIPC facts of one module: which domain every function
// and global belongs to, which functions are entries, their policies and the
// grants, read from the clang plugin's annotations.
#ifndef DIPC_PASS_DOMAINMODEL_H
#define DIPC_PASS_DOMAINMODEL_H

#include "dipc/signature.h"
#include "llvm/ADT/DenseMap.h"
// Before dipc/annotations.h, which uses llvm::all_of without including it.
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Function;
class GlobalValue;
class Module;
} // namespace llvm

namespace dipc {

struct Grant {
  std::string From, To;
  unsigned Perm; // enum dipc_perm
};

struct DomainModel {
  llvm::DenseMap<const llvm::GlobalValue *, std::string> Domain;
  llvm::SmallPtrSet<const llvm::Function *, 8> Entries;
  llvm::DenseMap<const llvm::Function *, dipc_policy_t> IsoCaller, IsoCallee;
  std::vector<Grant> Grants;

  // Unannotated items belong to the default domain.
  llvm::StringRef domainOf(const llvm::GlobalValue *GV) const;
  bool isEntry(const llvm::Function *F) const { return Entries.count(F); }
  dipc_policy_t isoCaller(const llvm::Function *F) const {
    return IsoCaller.lookup(F);
  }
  dipc_policy_t isoCallee(const llvm::Function *F) const {
    return IsoCallee.lookup(F);
  }
  bool empty() const { return Domain.empty() && Entries.empty(); }
};

// Reads the dIPC annotations of `M`. Malformed annotations are reported
// with LLVMContext::emitError; the result is std::nullopt then.
std::optional<DomainModel> readDomainModel(llvm::Module &M);

} // namespace dipc

#endif
