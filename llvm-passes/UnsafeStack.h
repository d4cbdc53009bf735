// UnsafeStack.h - escaping locals to the thread's unsafe stack (see
// UnsafeStack.cpp).
#ifndef DIPC_PASS_UNSAFESTACK_H
#define DIPC_PASS_UNSAFESTACK_H

#include "llvm/IR/PassManager.h"

namespace dipc {

class DipcUnsafeStackPass : public llvm::PassInfoMixin<DipcUnsafeStackPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace dipc

#endif
