// StubAsm.h - the inline assembly at the heart of the stubs: the caller
// stub's call of the proxy (clobbers chosen by policy, so the register
// allocator saves exactly the live values) and the callee stub's scrubbing
// of non-result registers.
#ifndef DIPC_PASS_STUBASM_H
#define DIPC_PASS_STUBASM_H

#include "OwnAsm.h"
#include "Signature.h"
#include "llvm/IR/IRBuilder.h"
#include <optional>

namespace dipc {

// Marks the caller stub's asm; DipcFramePass finds stub carriers by it.
inline constexpr llvm::StringLiteral CallerStubTag = "# dipc caller stub: ";
inline constexpr llvm::StringLiteral CalleeStubTag = "# dipc callee stub: ";

struct ProxyCall {
  llvm::InlineAsm *Asm;
  llvm::SmallVector<llvm::Value *, 8> Operands;
  unsigned ProxyOperand; // Operands' index of the proxy's address
  bool FaultFlag;        // the last output is r11 (below)
};

// The asm call of the proxy at `Proxy` (in r11) with `Args` in their SysV
// registers. `CanUnwind` makes it an `asm unwind` for try-style recovery.
// `FaultFlag` adds r11 as a last output: the proxy returns it 0, and under
// `sfi` the runtime resumes a setjmp-style caller whose callee faulted
// right after the call with r11 = DIPC_RESUME_FAULT instead of at its
// buffer's label, which the caller's domain could have rewritten
// (dipc/abi.h).
ProxyCall buildProxyCall(llvm::IRBuilder<> &B, const CallShape &Shape,
                         llvm::FunctionType *EntryTy,
                         llvm::AttributeList EntryAttrs,
                         llvm::ArrayRef<llvm::Value *> Args, llvm::Value *Proxy,
                         dipc_policy_t CallerPolicy, bool CanUnwind,
                         bool HasAVX, llvm::StringRef EntryName,
                         bool FaultFlag = false);

// A wrapper's stub under -fdipc-sfi (dipc/sfi.h): Stub, a caller stub's
// asm call, rebuilt to pass its proxy the address of the function's
// return-address slot in xmm15, keyed, and the word the function found
// there at entry in xmm14; returns the new call.
llvm::CallBase *passReturnSlot(llvm::CallBase &Stub);

// A FaultFlag call's value split into the results (as unpackResults
// wants them; nullptr for none) and the flag.
std::pair<llvm::Value *, llvm::Value *>
splitFaultFlag(llvm::IRBuilder<> &B, llvm::Value *AsmResult);

// The position, among the call's operands, of the caller stub's rsp input:
// its value is only valid in the function that took it.
std::optional<unsigned> stackPointerOperand(const llvm::InlineAsm &IA);

// Converts the asm's outputs back to the entry's IR return type (nullptr
// for void).
llvm::Value *unpackResults(llvm::IRBuilder<> &B, llvm::Value *AsmResult,
                           const CallShape &Shape, llvm::Type *RetTy);

// Emits, just before the callee stub returns `Result`, an asm that keeps the
// result registers and zeroes every other caller-saved register and the
// flags; returns the value to return. `SignExtend`: the result is signext.
llvm::Value *scrubBeforeReturn(llvm::IRBuilder<> &B, llvm::Value *Result,
                               const CallShape &Shape, bool SignExtend,
                               bool HasAVX, llvm::StringRef EntryName);

// True when the function's target features include AVX: the scrub then uses
// VEX encodings, which also clear the upper halves of the ymm registers.
bool hasAVX(const llvm::Function &F);

} // namespace dipc

#endif
