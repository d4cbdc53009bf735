// OwnAsm.h - the mark on every call of the dIPC passes' own inline asm
// (stubs, unsafe-stack prologue): the SFI pass (SfiChecks.cpp) accepts
// exactly these in instrumented code. No source construct sets a string
// attribute on a call site, so user asm cannot pass for ours, as it could
// by copying a tag of the asm text.
#ifndef DIPC_PASS_OWNASM_H
#define DIPC_PASS_OWNASM_H

#include "llvm/IR/InstrTypes.h"

namespace dipc {

inline constexpr llvm::StringLiteral OwnAsmAttr = "dipc-asm";

inline void markOwnAsm(llvm::CallBase &CB) {
  CB.addFnAttr(llvm::Attribute::get(CB.getContext(), OwnAsmAttr));
}

inline bool isOwnAsm(const llvm::CallBase &CB) {
  return CB.isInlineAsm() && CB.hasFnAttr(OwnAsmAttr);
}

} // namespace dipc

#endif
