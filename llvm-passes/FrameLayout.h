// FrameLayout.h - facts about a function's own frame that the stack passes
// share: how moved locals are laid out (UnsafeStack.cpp, SfiDataFrame.cpp)
// and which accesses stay inside a frame object, unchecked, and how large
// they are (SfiChecks.cpp, SfiDataFrame.cpp).
#ifndef DIPC_PASS_FRAMELAYOUT_H
#define DIPC_PASS_FRAMELAYOUT_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include <optional>
#include <utility>

namespace dipc {

// SysV x86-64 va_list: {i32, i32, ptr, ptr}.
inline constexpr uint64_t VaListSize = 24;

// The bytes an access of a value of type Ty touches.
inline uint64_t storeSize(const llvm::DataLayout &DL, llvm::Type *Ty) {
  return DL.getTypeStoreSize(Ty).getFixedValue();
}

// A local (an alloca, or a byval argument's copy) placed in a frame of the
// passes' making at Offset.
struct FrameSlot {
  llvm::Value *V;
  uint64_t Size;
  llvm::Align Alignment;
  uint64_t Offset = 0;
};

// Offsets from the frame's (aligned) base, most aligned first; returns the
// frame size, a multiple of 16.
inline uint64_t layOutFrame(llvm::SmallVectorImpl<FrameSlot> &Slots) {
  llvm::stable_sort(Slots, [](const FrameSlot &A, const FrameSlot &B) {
    return A.Alignment > B.Alignment;
  });
  uint64_t End = 0;
  for (FrameSlot &S : Slots) {
    S.Offset = llvm::alignTo(End, S.Alignment);
    End = S.Offset + S.Size;
  }
  return llvm::alignTo(End, llvm::Align(16));
}

// Ptr as a base and a constant offset (Ptr and 0 if there is none).
inline std::pair<llvm::Value *, int64_t>
baseAndOffset(llvm::Value *Ptr, const llvm::DataLayout &DL) {
  llvm::APInt Off(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  llvm::Value *Base = Ptr->stripAndAccumulateConstantOffsets(
      DL, Off, /*AllowNonInbounds=*/true);
  if (Base->getType() != Ptr->getType() || !Off.isSignedIntN(32))
    return {Ptr, 0};
  return {Base, Off.getSExtValue()};
}

// The size of a frame object: a static alloca of the function, which
// accesses proven inside need no check; none for anything else.
inline std::optional<uint64_t> frameObjectSize(const llvm::Value *V,
                                               const llvm::DataLayout &DL) {
  if (const auto *AI = llvm::dyn_cast<llvm::AllocaInst>(V)) {
    if (!AI->isStaticAlloca())
      return std::nullopt;
    std::optional<llvm::TypeSize> Size = AI->getAllocationSize(DL);
    if (!Size || Size->isScalable())
      return std::nullopt;
    return Size->getFixedValue();
  }
  // Not a byval argument: its area is whatever lies above the return
  // address, which a call through a pointer of another type never filled
  // (an attack round's callee read and wrote vault's callee stack past the
  // guard at constant offsets of an 8 MiB "argument"). Its uses go to a
  // copy in the data frame, read with a check (SfiDataFrame.cpp).
  return std::nullopt;
}

// Whether [Ptr, + Size) lies inside a frame object (above).
inline bool insideFrameObject(llvm::Value *Ptr, uint64_t Size,
                              const llvm::DataLayout &DL) {
  auto [Base, Off] = baseAndOffset(Ptr, DL);
  std::optional<uint64_t> ObjSize = frameObjectSize(Base, DL);
  return ObjSize && Off >= 0 && uint64_t(Off) + Size <= *ObjSize;
}

} // namespace dipc

#endif
