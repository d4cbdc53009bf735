// SfiDataFrame.h - under -fdipc-sfi, the locals a check may reach move to
// the callee stack's data mirror (see SfiDataFrame.cpp).
#ifndef DIPC_PASS_SFIDATAFRAME_H
#define DIPC_PASS_SFIDATAFRAME_H

#include "llvm/IR/Function.h"

namespace dipc {

// Moves F's locals that are not only accessed inside themselves at
// constant offsets; true if F changed. Before the SFI checks go in.
bool moveCheckedLocals(llvm::Function &F);

} // namespace dipc

#endif
