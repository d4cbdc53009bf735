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
class DataLayout;
class FunctionType;
class Type;
} // namespace llvm

namespace dipc {

enum class RegClass { Int, Vec, X87, Mem };

// Where one value goes: the N-th integer or vector argument (or result)
// register of the calling convention, st0 (a long double result), or for
// Mem the `Size` bytes at `Index` in the stack-argument area (the bytes above
// the return address; `Size` is what the value itself occupies).
struct RegSlot {
  RegClass Class;
  unsigned Index;
  unsigned Size = 0;
};

struct CallShape {
  llvm::SmallVector<RegSlot, 8> Args;    // one per IR parameter
  llvm::SmallVector<RegSlot, 2> Results; // one per returned scalar
  bool SRet = false; // the first argument is an sret pointer, echoed in rax
  dipc_signature Signature{};
};

// Register names (64-bit, without '%') of the SysV convention; "st" for X87.
// Not for Mem.
llvm::StringRef argRegName(RegSlot Slot);
llvm::StringRef resultRegName(RegSlot Slot);

// The shape of a call through `Ty` with parameter attributes `Attrs`, or
// std::nullopt with `Why` set when a proxy cannot carry it (128-bit integers,
// complex long double, varargs, more than DIPC_MAX_STACK_BYTES of stack
// arguments).
std::optional<CallShape> describeCall(llvm::FunctionType *Ty,
                                      llvm::AttributeList Attrs,
                                      const llvm::DataLayout &DL,
                                      std::string &Why);

} // namespace dipc

#endif
