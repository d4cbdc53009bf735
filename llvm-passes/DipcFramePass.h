// DipcFramePass.h - late checks of stub-carrying functions (see
// DipcFramePass.cpp).
#ifndef DIPC_PASS_DIPCFRAMEPASS_H
#define DIPC_PASS_DIPCFRAMEPASS_H

#include "llvm/IR/PassManager.h"

namespace dipc {

class DipcFramePass : public llvm::PassInfoMixin<DipcFramePass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace dipc

#endif
