// SfiChecks.h - the software access checks of -fdipc-sfi (see
// SfiChecks.cpp and include/dipc/sfi.h).
#ifndef DIPC_PASS_SFICHECKS_H
#define DIPC_PASS_SFICHECKS_H

#include "llvm/IR/PassManager.h"

namespace dipc {

class DipcSfiPass : public llvm::PassInfoMixin<DipcSfiPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace dipc

#endif
