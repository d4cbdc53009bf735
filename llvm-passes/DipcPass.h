// DipcPass.h - the dIPC lowering pass (see DipcPass.cpp).
#ifndef DIPC_PASS_DIPCPASS_H
#define DIPC_PASS_DIPCPASS_H

#include "llvm/IR/PassManager.h"

namespace dipc {

class DipcPass : public llvm::PassInfoMixin<DipcPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  // Isolation is not an optimisation: -O0 (optnone) must not skip it.
  static bool isRequired() { return true; }
};

} // namespace dipc

#endif
