// Signature.cpp - classifies an ABI-lowered IR signature into SysV argument
// and result registers and stack-argument slots. Clang has already lowered
// aggregates (coerced to integers/doubles, or byval/sret pointers), so each
// IR scalar maps to one register or one slot, assigned in order as LLVM's
// X86-64 C calling convention does: a scalar that finds its registers used
// up, a byval aggregate and a long double go to the next slot of the area
// above the return address, aligned to 8 (16 for long double, 128-bit
// vectors and byval aggregates aligned so).
#include "Signature.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace dipc {

static const char *const IntArgRegs[] = {"rdi", "rsi", "rdx",
                                         "rcx", "r8",  "r9"};
static const char *const IntResultRegs[] = {"rax", "rdx"};
static const char *const VecRegs[] = {"xmm0", "xmm1", "xmm2", "xmm3",
                                      "xmm4", "xmm5", "xmm6", "xmm7"};

StringRef argRegName(RegSlot Slot) {
  return Slot.Class == RegClass::Int ? IntArgRegs[Slot.Index]
                                     : VecRegs[Slot.Index];
}

StringRef resultRegName(RegSlot Slot) {
  if (Slot.Class == RegClass::X87)
    return "st";
  return Slot.Class == RegClass::Int ? IntResultRegs[Slot.Index]
                                     : VecRegs[Slot.Index];
}

static std::optional<RegClass> classify(Type *Ty) {
  if (Ty->isPointerTy() ||
      (Ty->isIntegerTy() && Ty->getIntegerBitWidth() <= 64))
    return RegClass::Int;
  if (Ty->isFloatTy() || Ty->isDoubleTy())
    return RegClass::Vec;
  if (auto *VTy = dyn_cast<FixedVectorType>(Ty);
      VTy && VTy->getPrimitiveSizeInBits() <= 128)
    return RegClass::Vec;
  return std::nullopt;
}

static std::string typeName(Type *Ty) {
  std::string S;
  raw_string_ostream OS(S);
  Ty->print(OS);
  return S;
}

std::optional<CallShape> describeCall(FunctionType *Ty, AttributeList Attrs,
                                      const DataLayout &DL, std::string &Why) {
  if (Ty->isVarArg()) {
    Why = "it is variadic";
    return std::nullopt;
  }
  CallShape Shape;
  unsigned NumInt = 0, NumVec = 0;
  uint64_t StackBytes = 0;
  // The next stack slot of `Size` bytes aligned to `Alignment`.
  auto InMemory = [&](uint64_t Size, uint64_t Alignment) {
    StackBytes =
        alignTo(StackBytes, std::max<uint64_t>(Alignment, DIPC_STACK_SLOT));
    RegSlot Slot{RegClass::Mem, unsigned(StackBytes), unsigned(Size)};
    StackBytes += alignTo(Size, DIPC_STACK_SLOT);
    return Slot;
  };
  for (unsigned I = 0; I < Ty->getNumParams(); ++I) {
    Type *PTy = Ty->getParamType(I);
    for (Attribute::AttrKind Memory :
         {Attribute::InAlloca, Attribute::Preallocated}) {
      if (Attrs.hasParamAttr(I, Memory)) {
        Why = "parameter " + std::to_string(I + 1) +
              " is passed in a preallocated argument area";
        return std::nullopt;
      }
    }
    if (Attrs.hasParamAttr(I, Attribute::InReg) ||
        Attrs.hasParamAttr(I, Attribute::Nest)) {
      Why = "parameter " + std::to_string(I + 1) +
            " uses a non-standard register (inreg/nest)";
      return std::nullopt;
    }
    if (I == 0 && Attrs.hasParamAttr(0, Attribute::StructRet))
      Shape.SRet = true;
    if (Type *ByVal = Attrs.getParamByValType(I)) {
      MaybeAlign A = Attrs.getParamAlignment(I);
      Shape.Args.push_back(
          InMemory(DL.getTypeAllocSize(ByVal),
                   A ? A->value() : DL.getABITypeAlign(ByVal).value()));
    } else if (PTy->isX86_FP80Ty()) {
      Shape.Args.push_back(InMemory(DL.getTypeStoreSize(PTy), 16));
    } else if (std::optional<RegClass> Class = classify(PTy)) {
      unsigned &Count = *Class == RegClass::Int ? NumInt : NumVec;
      unsigned Max =
          *Class == RegClass::Int ? DIPC_MAX_INT_ARGS : DIPC_MAX_VEC_ARGS;
      if (Count < Max) {
        Shape.Args.push_back({*Class, Count++});
      } else {
        uint64_t Size = DL.getTypeStoreSize(PTy);
        Shape.Args.push_back(InMemory(Size, Size > 8 ? 16 : 8));
      }
    } else {
      Why = "parameter " + std::to_string(I + 1) + " has type " +
            typeName(PTy) + ", which a proxy cannot carry";
      return std::nullopt;
    }
  }
  StackBytes = alignTo(StackBytes, DIPC_STACK_SLOT);
  if (StackBytes > DIPC_MAX_STACK_BYTES) {
    Why = "its stack arguments take " + std::to_string(StackBytes) +
          " bytes, more than " + std::to_string(DIPC_MAX_STACK_BYTES);
    return std::nullopt;
  }

  Type *Ret = Ty->getReturnType();
  SmallVector<Type *, 2> Scalars;
  if (auto *STy = dyn_cast<StructType>(Ret))
    Scalars.append(STy->element_begin(), STy->element_end());
  else if (!Ret->isVoidTy())
    Scalars.push_back(Ret);
  unsigned NumIntRes = 0, NumVecRes = 0, NumX87Res = 0;
  if (Ret->isX86_FP80Ty()) {
    Shape.Results.push_back({RegClass::X87, 0});
    NumX87Res = 1;
    Scalars.clear();
  }
  for (Type *Scalar : Scalars) {
    std::optional<RegClass> Class = classify(Scalar);
    unsigned *Count = Class == RegClass::Int   ? &NumIntRes
                      : Class == RegClass::Vec ? &NumVecRes
                                               : nullptr;
    unsigned Max = Class == RegClass::Int ? DIPC_MAX_INT_RESULTS
                                          : DIPC_MAX_VEC_RESULTS;
    if (!Count || *Count == Max) {
      Why = "its result of type " + typeName(Ret) +
            " is not returned in rax/rdx/xmm0/xmm1/st0";
      return std::nullopt;
    }
    Shape.Results.push_back({*Class, (*Count)++});
  }
  if (Shape.SRet)
    NumIntRes = 1; // the callee returns the sret pointer in rax

  Shape.Signature.int_args = NumInt;
  Shape.Signature.vec_args = NumVec;
  Shape.Signature.int_results = NumIntRes;
  Shape.Signature.vec_results = NumVecRes;
  Shape.Signature.stack_bytes = StackBytes;
  Shape.Signature.x87_results = NumX87Res;
  return Shape;
}

} // namespace dipc
