// Signature.h - the x86-64 SysV register usage of an ABI-lowered IR function
// type: which argument and result registers a cross-domain call uses, and
// the dipc_signature recorded for it (include/dipc/signature.h).
#ifndef DIPC_PASS_SIGNATURE_H
#define DIPC_PASS_SIGNATURE_H

#include "dipc/signature.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Attributes.h"
#include <optional>
#include <string>

namespace llvm {
class FunctionType;
class Type;
} // namespace llvm

namespace dipc {

enum class RegClass { Int, Vec };

// One value in a register: the N-th integer or vector argument (or result)
// register of the calling convention.
struct RegSlot {
  RegClass Class;
  unsigned Index;
};

struct CallShape {
  llvm::SmallVector<RegSlot, 8> Args;    // one per IR parameter
  llvm::SmallVector<RegSlot, 2> Results; // one per returned scalar
  bool SRet = false; // the first argument is an sret pointer, echoed in rax
  dipc_signature Signature{};
};

// Register names (64-bit, without '%') of the SysV convention.
llvm::StringRef argRegName(RegSlot Slot);
llvm::StringRef resultRegName(RegSlot Slot);

// The shape of a call through `Ty` with parameter attributes `Attrs`, or
// std::nullopt with `Why` set when a proxy cannot carry it (stack arguments,
// x87 or 128-bit integers, aggregates in memory, varargs).
std::optional<CallShape> describeCall(llvm::FunctionType *Ty,
                                      llvm::AttributeList Attrs,
                                      std::string &Why);

} // namespace dipc

#endif
