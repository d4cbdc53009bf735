// Signature.cpp - classifies an ABI-lowered IR signature into SysV argument
// and result registers. Clang has already lowered aggregates (coerced to
// integers/doubles, or byval/sret pointers), so each IR scalar maps to one
// register; anything left in memory is rejected because the caller stub's
// inline-asm call cannot place stack arguments without moving rsp.
#include "Signature.h"
#include "llvm/IR/DerivedTypes.h"
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
                                      std::string &Why) {
  if (Ty->isVarArg()) {
    Why = "it is variadic";
    return std::nullopt;
  }
  CallShape Shape;
  unsigned NumInt = 0, NumVec = 0;
  for (unsigned I = 0; I < Ty->getNumParams(); ++I) {
    for (Attribute::AttrKind Memory :
         {Attribute::ByVal, Attribute::InAlloca, Attribute::Preallocated}) {
      if (Attrs.hasParamAttr(I, Memory)) {
        Why = "parameter " + std::to_string(I + 1) +
              " is passed in memory on the stack";
        return std::nullopt;
      }
    }
    if (Attrs.hasParamAttr(I, Attribute::InReg) ||
        Attrs.hasParamAttr(I, Attribute::Nest)) {
      Why = "parameter " + std::to_string(I + 1) +
            " uses a non-standard register (inreg/nest)";
      return std::nullopt;
    }
    std::optional<RegClass> Class = classify(Ty->getParamType(I));
    if (!Class) {
      Why = "parameter " + std::to_string(I + 1) + " has type " +
            typeName(Ty->getParamType(I)) +
            ", which is not passed in one register";
      return std::nullopt;
    }
    unsigned &Count = *Class == RegClass::Int ? NumInt : NumVec;
    unsigned Max =
        *Class == RegClass::Int ? DIPC_MAX_INT_ARGS : DIPC_MAX_VEC_ARGS;
    if (Count == Max) {
      Why = "parameter " + std::to_string(I + 1) +
            " does not fit in argument registers and would go on the stack";
      return std::nullopt;
    }
    if (I == 0 && Attrs.hasParamAttr(0, Attribute::StructRet))
      Shape.SRet = true;
    Shape.Args.push_back({*Class, Count++});
  }

  Type *Ret = Ty->getReturnType();
  SmallVector<Type *, 2> Scalars;
  if (auto *STy = dyn_cast<StructType>(Ret))
    Scalars.append(STy->element_begin(), STy->element_end());
  else if (!Ret->isVoidTy())
    Scalars.push_back(Ret);
  unsigned NumIntRes = 0, NumVecRes = 0;
  for (Type *Scalar : Scalars) {
    std::optional<RegClass> Class = classify(Scalar);
    unsigned *Count = Class == RegClass::Int   ? &NumIntRes
                      : Class == RegClass::Vec ? &NumVecRes
                                               : nullptr;
    if (!Count || *Count == 2) {
      Why = "its result of type " + typeName(Ret) +
            " is not returned in rax/rdx/xmm0/xmm1";
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
  Shape.Signature.stack_bytes = 0;
  return Shape;
}

} // namespace dipc
