// Diagnostics.h - compile errors of the dIPC passes, reported through the
// LLVMContext (clang shows them as errors with the source location; opt
// prints them and fails) instead of crashing.
#ifndef DIPC_PASS_DIAGNOSTICS_H
#define DIPC_PASS_DIAGNOSTICS_H

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"

namespace dipc {

inline void reportError(const llvm::Function &F, const llvm::Twine &Msg,
                        const llvm::DebugLoc &Loc = {}) {
  F.getContext().diagnose(
      llvm::DiagnosticInfoUnsupported(F, "dipc: " + Msg, Loc));
}

} // namespace dipc

#endif
