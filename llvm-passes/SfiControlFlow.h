// SfiControlFlow.h - the control-flow integrity of -fdipc-sfi (see
// SfiControlFlow.cpp and "Control flow" in include/dipc/sfi.h).
#ifndef DIPC_PASS_SFICONTROLFLOW_H
#define DIPC_PASS_SFICONTROLFLOW_H

#include "llvm/IR/PassManager.h"

namespace dipc {

// Instruments the module when it is marked for dipc-sfi (DipcSfiMarkPass),
// or always when `Always` (`opt -passes=dipc-sfi-cfi`). Runs right after
// DipcSfiPass, so that its prologue comes before the checks' first load.
class DipcSfiCfiPass : public llvm::PassInfoMixin<DipcSfiCfiPass> {
public:
  explicit DipcSfiCfiPass(bool Always = false) : Always(Always) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  bool Always;
};

} // namespace dipc

#endif
