// SfiChecks.h - the software access checks of -fdipc-sfi (see
// SfiChecks.cpp and include/dipc/sfi.h).
#ifndef DIPC_PASS_SFICHECKS_H
#define DIPC_PASS_SFICHECKS_H

#include "llvm/IR/PassManager.h"

namespace dipc {

// The passes' own accesses, which -fdipc-sfi does not check: the checks'
// loads, the shadow stack's, a caller stub's load of its import slot.
inline constexpr llvm::StringLiteral SfiOwnAccessMD = "dipc.sfi.check";

// Instruments the module when it is marked (below), or always when
// `Always` (`opt -passes=dipc-sfi`).
class DipcSfiPass : public llvm::PassInfoMixin<DipcSfiPass> {
public:
  explicit DipcSfiPass(bool Always = false) : Always(Always) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  bool Always;
};

// Marks the module for dipc-sfi (module flag "dipc.sfi"), at the start of
// the compile-time pipeline: the mark survives into lld's LTO, whose
// pipeline has no -dipc-sfi, and where the checks then go in after
// link-time inlining.
class DipcSfiMarkPass : public llvm::PassInfoMixin<DipcSfiMarkPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace dipc

#endif
