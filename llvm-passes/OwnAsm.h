// OwnAsm.h - the mark on every call of the dIPC passes' own inline asm
// (stubs, unsafe-stack prologue): the SFI pass (SfiChecks.cpp) accepts
// exactly these in instrumented code. No source construct sets a string
// attribute on a call site, so user asm cannot pass for ours, as it could
// by copying a tag of the asm text.
#ifndef DIPC_PASS_OWNASM_H
#define DIPC_PASS_OWNASM_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/InstrTypes.h"

namespace dipc {

inline constexpr llvm::StringLiteral OwnAsmAttr = "dipc-asm";

inline void markOwnAsm(llvm::CallBase &CB) {
  CB.addFnAttr(llvm::Attribute::get(CB.getContext(), OwnAsmAttr));
}

inline bool isOwnAsm(const llvm::CallBase &CB) {
  return CB.isInlineAsm() && CB.hasFnAttr(OwnAsmAttr);
}

// A caller stub's asm call of its proxy (CallerStubs.cpp): the value is the
// argument index of the proxy's address, which the calling domain loaded
// from its import slot (its own, writable memory). -fdipc-sfi checks it as
// an indirect call's target (SfiControlFlow.cpp).
inline constexpr llvm::StringLiteral StubCallAttr = "dipc-stub-call";

inline void markStubCall(llvm::CallBase &CB, unsigned ProxyOperand) {
  CB.addFnAttr(llvm::Attribute::get(CB.getContext(), StubCallAttr,
                                    llvm::utostr(ProxyOperand)));
}

// The proxy operand of a stub call, or null.
inline llvm::Value *stubCallTarget(const llvm::CallBase &CB) {
  if (!isOwnAsm(CB) || !CB.hasFnAttr(StubCallAttr))
    return nullptr;
  unsigned I;
  if (CB.getFnAttr(StubCallAttr).getValueAsString().getAsInteger(10, I) ||
      I >= CB.arg_size())
    return nullptr;
  return CB.getArgOperand(I);
}

} // namespace dipc

#endif
