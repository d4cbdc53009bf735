// StubAsm.cpp - builds the inline asm of caller and callee stubs.
//
// The caller's asm is `call *%r11` with the arguments pinned to their SysV
// registers. Its clobber list is what gives register liveness: it clobbers
// what any call clobbers (caller-saved registers, argument registers too,
// which LLVM accepts for inputs), so the register allocator keeps values
// live across the call where it keeps them around a plain call. Register
// integrity needs nothing more here: every proxy's return path restores
// rbx, rbp and r12-r15 from its KCS entry (rt/gate.S), whatever the callee
// did, so they are preserved as across a plain call. Only
// reg_confidentiality, which zeroes them before the call, also clobbers
// them. The asm is `alignstack` so the call
// sees a 16-byte aligned stack and the function gets a frame instead of
// keeping locals in the red zone that the pushed return address would hit;
// it takes rsp as an input so that the frame is set up before it on every
// path (shrink-wrapping places the prologue by the instructions that use
// the stack, and `alignstack` does not make an asm one of them).
//
// Confidentiality also covers the vector state beyond xmm0-15's low halves
// (ymm/zmm upper halves, zmm16-31, k0-7), which a stub compiled for plain
// x86-64 cannot name safely: it calls the runtime vector's scrub routine,
// which libdipc picks for the CPU at start (dipc/abi.h).
#include "StubAsm.h"
#include "SfiChecks.h"
#include "dipc.h"
#include "dipc/abi.h"
#include "dipc/sfi.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace dipc {

static const char *const CallerSavedGPRs[] = {"rax", "rcx", "rdx", "rsi", "rdi",
                                              "r8",  "r9",  "r10", "r11"};
static const char *const CalleeSavedGPRs[] = {"rbx", "rbp", "r12",
                                              "r13", "r14", "r15"};
static constexpr unsigned NumXMM = 16;

bool hasAVX(const Function &F) {
  StringRef Features = F.getFnAttribute("target-features").getValueAsString();
  SmallVector<StringRef, 32> List;
  Features.split(List, ',');
  return llvm::is_contained(List, "+avx");
}

// `xorl %e?x, %e?x` for a 64-bit register name (also clears the upper half).
static std::string zeroGPR(StringRef Reg) {
  std::string Sub = Reg.starts_with("r") && isdigit(Reg[1])
                        ? (Reg + "d").str()
                        : ("e" + Reg.drop_front()).str();
  return "xorl %" + Sub + ", %" + Sub + "\n\t";
}

// Zeroes the upper halves of ymm/zmm0-15, zmm16-31 and k0-7 as far as the
// CPU has them; every other register is kept (dipc/abi.h).
static std::string scrubWideVectors() {
  return "call *" + std::to_string(DIPC_VECTOR_SCRUB) + "\n\t";
}

// Vector registers beyond xmm0-15: caller-saved, so the callee may change
// them, and the scrub routine zeroes them. Harmless without AVX-512.
static void clobberWideVectors(std::vector<std::string> &Clobbers) {
  for (unsigned I = NumXMM; I < 32; ++I)
    Clobbers.push_back("~{xmm" + std::to_string(I) + "}");
  for (unsigned I = 0; I < 8; ++I)
    Clobbers.push_back("~{k" + std::to_string(I) + "}");
}

static std::string zeroXMM(unsigned N, bool HasAVX) {
  std::string X = "%xmm" + std::to_string(N);
  return HasAVX ? "vxorps " + X + ", " + X + ", " + X + "\n\t"
                : "xorps " + X + ", " + X + "\n\t";
}

// '$' starts an operand reference in LLVM inline asm.
static std::string asmEscape(StringRef S) {
  std::string Out;
  for (char C : S) {
    if (C == '$')
      Out += '$';
    if (C != '\n')
      Out += C;
  }
  return Out;
}

static Type *resultRegType(LLVMContext &Ctx, Type *Scalar, RegClass Class) {
  if (Class != RegClass::Int || Scalar->isPointerTy())
    return Scalar;
  return Type::getInt64Ty(Ctx);
}

static SmallVector<Type *, 2> resultScalars(Type *RetTy) {
  SmallVector<Type *, 2> Scalars;
  if (auto *STy = dyn_cast<StructType>(RetTy))
    Scalars.append(STy->element_begin(), STy->element_end());
  else if (!RetTy->isVoidTy())
    Scalars.push_back(RetTy);
  return Scalars;
}

ProxyCall buildProxyCall(IRBuilder<> &B, const CallShape &Shape,
                         FunctionType *EntryTy, AttributeList EntryAttrs,
                         ArrayRef<Value *> Args, Value *Proxy,
                         dipc_policy_t CallerPolicy, bool CanUnwind,
                         bool HasAVX, StringRef EntryName, bool FaultFlag) {
  LLVMContext &Ctx = B.getContext();
  ProxyCall Call;
  Call.FaultFlag = FaultFlag;
  std::vector<std::string> Constraints;
  StringSet<> Written; // registers named as outputs: no clobber for them

  SmallVector<Type *, 2> Scalars = resultScalars(EntryTy->getReturnType());
  SmallVector<Type *, 2> OutTypes;
  for (auto [Scalar, Slot] : zip(Scalars, Shape.Results)) {
    OutTypes.push_back(resultRegType(Ctx, Scalar, Slot.Class));
    Constraints.push_back(("={" + resultRegName(Slot) + "}").str());
    Written.insert(resultRegName(Slot));
  }
  if (FaultFlag) {
    OutTypes.push_back(Type::getInt64Ty(Ctx));
    Constraints.push_back("={r11}");
    Written.insert("r11");
  }
  // Stack arguments are laid out in a buffer of the caller's frame, which
  // the asm copies below rsp (StackArgs != 0).
  uint64_t StackArgs = alignTo(Shape.Signature.stack_bytes, 16);
  Value *ArgBuf = nullptr;
  if (StackArgs) {
    Function &F = *B.GetInsertBlock()->getParent();
    IRBuilder<> EB(&F.getEntryBlock(), F.getEntryBlock().getFirstInsertionPt());
    auto *Buf = EB.CreateAlloca(ArrayType::get(B.getInt8Ty(), StackArgs),
                                nullptr, "dipc.stackargs");
    Buf->setAlignment(Align(16));
    // Zeroed: padding must not carry the caller's old stack bytes.
    B.CreateMemSet(Buf, B.getInt8(0), StackArgs, Align(16));
    ArgBuf = Buf;
  }
  for (auto [I, Arg] : enumerate(Args)) {
    RegSlot Slot = Shape.Args[I];
    Value *V = Arg;
    // The callee may rely on the SysV extension of narrow integers.
    if (V->getType()->isIntegerTy() && V->getType()->getIntegerBitWidth() < 64)
      V = EntryAttrs.hasParamAttr(I, Attribute::SExt)
              ? B.CreateSExt(V, B.getInt64Ty())
              : B.CreateZExt(V, B.getInt64Ty());
    if (Slot.Class == RegClass::Mem) {
      Value *At =
          B.CreateConstInBoundsGEP1_32(B.getInt8Ty(), ArgBuf, Slot.Index);
      Align A = commonAlignment(Align(16), Slot.Index);
      if (EntryAttrs.getParamByValType(I))
        B.CreateMemCpy(At, A, V, EntryAttrs.getParamAlignment(I).valueOrOne(),
                       Slot.Size);
      else
        B.CreateAlignedStore(V, At, A);
      continue;
    }
    Call.Operands.push_back(V);
    Constraints.push_back(("{" + argRegName(Slot) + "}").str());
  }
  if (ArgBuf) {
    Call.Operands.push_back(ArgBuf);
    Constraints.push_back("{r10}");
  }
  unsigned ProxyOperand = OutTypes.size() + Call.Operands.size();
  Call.ProxyOperand = Call.Operands.size();
  Call.Operands.push_back(Proxy);
  Constraints.push_back("{r11}");
  // The call pushes onto the stack, so the asm reads rsp, and says so: an
  // instruction using rsp keeps shrink-wrapping from sinking the prologue
  // (and the alignment it brings) below the stub, which `alignstack` alone
  // does not (an invoke's landing pad was then the only block with a frame).
  // The value is rsp's own, so no instruction moves it.
  Call.Operands.push_back(B.CreateStackSave("dipc.sp"));
  Constraints.push_back("{rsp}");

  // reg_integrity adds no clobber: the proxy restores the callee-saved
  // registers on return (rt/gate.S), so they are as safe there as around a
  // plain call and the function saves only what a plain call makes it save.
  bool Confidential = CallerPolicy & reg_confidentiality;
  std::string Text = (CallerStubTag + asmEscape(EntryName) + "\n\t").str();
  std::string N = std::to_string(StackArgs);
  if (StackArgs) {
    // The arguments go right above the return address the call pushes, as
    // the SysV convention wants; rsp stays 16-byte aligned. Operands are
    // registers: none is rsp-relative once rsp moved. The CFI does not
    // follow rsp: nothing unwinds from inside the asm but try-style
    // recovery, which resumes with rsp back at its value outside the asm
    // (rt/recovery.c), where the landing pad expects it.
    std::string Mov = HasAVX ? "vmovups " : "movups ";
    Text += "subq $$" + N + ", %rsp\n\tmovl $$" + N + ", %eax\n1:\n\t" + Mov +
            "-16(%r10,%rax), %xmm13\n\t" + Mov +
            "%xmm13, -16(%rsp,%rax)\n\tsubl $$16, %eax\n\tjnz 1b\n\t";
  }
  if (Confidential) {
    // Everything the callee could read except its arguments, rsp and the
    // proxy address in r11 (public: the loader wrote it). Arguments are at
    // most 128 bits wide, so no upper half is one.
    Text += scrubWideVectors();
    for (StringRef Reg :
         {"rax", "rbx", "rbp", "r10", "r12", "r13", "r14", "r15"})
      Text += zeroGPR(Reg);
    for (unsigned I = Shape.Signature.int_args; I < DIPC_MAX_INT_ARGS; ++I)
      Text += zeroGPR(argRegName({RegClass::Int, I}));
    for (unsigned I = Shape.Signature.vec_args; I < NumXMM; ++I)
      Text += zeroXMM(I, HasAVX);
  }
  Text += "call *$" + std::to_string(ProxyOperand);
  if (StackArgs)
    Text += "\n\taddq $$" + N + ", %rsp";

  for (const char *Reg : CallerSavedGPRs)
    if (!Written.count(Reg))
      Constraints.push_back(std::string("~{") + Reg + "}");
  // The zeroing above hides the callee-saved registers from the callee, so
  // their values are gone when the asm's call starts: the register
  // allocator must keep what is live in them elsewhere (the proxy puts the
  // zeroes back on return).
  if (Confidential)
    for (const char *Reg : CalleeSavedGPRs)
      Constraints.push_back(std::string("~{") + Reg + "}");
  for (unsigned I = 0; I < NumXMM; ++I) {
    std::string Reg = "xmm" + std::to_string(I);
    if (!Written.count(Reg))
      Constraints.push_back("~{" + Reg + "}");
  }
  clobberWideVectors(Constraints);
  for (const char *Other : {"~{memory}", "~{dirflag}", "~{fpsr}", "~{flags}"})
    Constraints.push_back(Other);

  Type *RetTy = OutTypes.empty()       ? Type::getVoidTy(Ctx)
                : OutTypes.size() == 1 ? OutTypes[0]
                                       : StructType::get(Ctx, OutTypes);
  SmallVector<Type *, 8> InTypes;
  for (Value *V : Call.Operands)
    InTypes.push_back(V->getType());
  Call.Asm =
      InlineAsm::get(FunctionType::get(RetTy, InTypes, false), Text,
                     join(Constraints, ","), /*hasSideEffects=*/true,
                     /*isAlignStack=*/true, InlineAsm::AD_ATT, CanUnwind);
  return Call;
}

CallBase *passReturnSlot(CallBase &Stub) {
  auto *IA = cast<InlineAsm>(Stub.getCalledOperand());
  std::string Text = IA->getAsmString();
  // xmm15 and xmm14 carry the slot and its word, so confidentiality does
  // not zero them here: the proxy does, before the callee runs.
  for (unsigned X : {14u, 15u})
    for (bool AVX : {false, true})
      if (size_t At = Text.find(zeroXMM(X, AVX)); At != std::string::npos)
        Text.erase(At, zeroXMM(X, AVX).size());
  // Keyed here, in the asm: a key applied in IR would give the register
  // allocator a value it may spill rather than recompute from rsp.
  size_t Call = Text.rfind("call *$");
  assert(Call != std::string::npos && "not a caller stub's asm");
  Text.insert(Call, "movq %xmm15, %rax\n\txorq $$" +
                        std::to_string(DIPC_SFI_RET_SLOT_KEY) +
                        ", %rax\n\tmovq %rax, %xmm15\n\t");
  // The inputs go after the others, before the clobbers.
  std::string Constraints = IA->getConstraintString();
  Constraints.insert(Constraints.find(",~{"), ",{xmm15},{xmm14}");

  // The word is read first thing, as a shadow stack's push reads it: the
  // proxy keeps what the caller's call left there, not what another
  // thread may have written since.
  Function &F = *Stub.getFunction();
  BasicBlock::iterator At = F.getEntryBlock().getFirstInsertionPt();
  while (isa<AllocaInst>(*At) && cast<AllocaInst>(*At).isStaticAlloca())
    ++At;
  IRBuilder<> EB(&F.getEntryBlock(), At);
  Value *SlotPtr = EB.CreateIntrinsic(Intrinsic::addressofreturnaddress,
                                      {EB.getPtrTy()}, {}, nullptr,
                                      "dipc.ret.slot");
  LoadInst *Word = EB.CreateAlignedLoad(EB.getInt64Ty(), SlotPtr, Align(8),
                                        /*isVolatile=*/true, "dipc.ret.word");
  Word->setMetadata(SfiOwnAccessMD, MDNode::get(F.getContext(), {}));
  IRBuilder<> B(&Stub);
  SmallVector<Value *, 12> Args(Stub.args());
  Args.push_back(B.CreatePtrToInt(SlotPtr, B.getInt64Ty()));
  Args.push_back(Word);
  SmallVector<Type *, 12> InTypes(IA->getFunctionType()->params());
  InTypes.push_back(B.getInt64Ty());
  InTypes.push_back(B.getInt64Ty());
  auto *NewIA = InlineAsm::get(
      FunctionType::get(IA->getFunctionType()->getReturnType(), InTypes,
                        false),
      Text, Constraints, IA->hasSideEffects(), IA->isAlignStack(),
      IA->getDialect(), IA->canThrow());
  SmallVector<OperandBundleDef, 1> Bundles;
  Stub.getOperandBundlesAsDefs(Bundles);
  CallBase *New;
  if (auto *II = dyn_cast<InvokeInst>(&Stub))
    New = InvokeInst::Create(NewIA, II->getNormalDest(), II->getUnwindDest(),
                             Args, Bundles, "", &Stub);
  else
    New = CallInst::Create(NewIA, Args, Bundles, "", &Stub);
  New->setAttributes(Stub.getAttributes());
  New->setCallingConv(Stub.getCallingConv());
  New->copyMetadata(Stub);
  New->takeName(&Stub);
  Stub.replaceAllUsesWith(New);
  Stub.eraseFromParent();
  return New;
}

std::pair<Value *, Value *> splitFaultFlag(IRBuilder<> &B, Value *AsmResult) {
  auto *STy = dyn_cast<StructType>(AsmResult->getType());
  if (!STy)
    return {nullptr, AsmResult};
  unsigned N = STy->getNumElements() - 1;
  Value *Flag = B.CreateExtractValue(AsmResult, N, "dipc.faulted");
  if (N == 1)
    return {B.CreateExtractValue(AsmResult, 0), Flag};
  Type *ResultsTy =
      StructType::get(B.getContext(), STy->elements().take_front(N));
  Value *Results = PoisonValue::get(ResultsTy);
  for (unsigned I = 0; I < N; ++I)
    Results = B.CreateInsertValue(Results, B.CreateExtractValue(AsmResult, I),
                                  I);
  return {Results, Flag};
}

std::optional<unsigned> stackPointerOperand(const InlineAsm &IA) {
  unsigned ArgNo = 0;
  for (const InlineAsm::ConstraintInfo &C : IA.ParseConstraints()) {
    if (C.Type == InlineAsm::isInput) {
      if (C.Codes.size() == 1 && C.Codes[0] == "{rsp}")
        return ArgNo;
      ++ArgNo;
    } else if (C.Type == InlineAsm::isOutput && C.isIndirect) {
      ++ArgNo;
    }
  }
  return std::nullopt;
}

Value *unpackResults(IRBuilder<> &B, Value *AsmResult, const CallShape &Shape,
                     Type *RetTy) {
  if (RetTy->isVoidTy())
    return nullptr;
  SmallVector<Type *, 2> Scalars = resultScalars(RetTy);
  auto Fit = [&](Value *V, Type *Scalar) -> Value * {
    return V->getType() == Scalar ? V : B.CreateTrunc(V, Scalar);
  };
  if (!isa<StructType>(RetTy))
    return Fit(AsmResult, RetTy);
  Value *Agg = PoisonValue::get(RetTy);
  for (auto [I, Scalar] : enumerate(Scalars))
    Agg = B.CreateInsertValue(
        Agg, Fit(B.CreateExtractValue(AsmResult, I), Scalar), I);
  return Agg;
}

Value *scrubBeforeReturn(IRBuilder<> &B, Value *Result, const CallShape &Shape,
                         bool SignExtend, bool HasAVX, StringRef EntryName) {
  LLVMContext &Ctx = B.getContext();
  Type *RetTy = Result ? Result->getType() : Type::getVoidTy(Ctx);
  SmallVector<Type *, 2> Scalars = resultScalars(RetTy);
  SmallVector<Value *, 2> Ins;
  SmallVector<Type *, 2> OutTypes;
  std::vector<std::string> Outs, Tied, Clobbers;
  StringSet<> Kept;
  for (auto [I, Scalar] : enumerate(Scalars)) {
    RegSlot Slot = Shape.Results[I];
    Value *V =
        isa<StructType>(RetTy) ? B.CreateExtractValue(Result, I) : Result;
    // Widen as the caller expects (signext/zeroext on the return).
    if (Slot.Class == RegClass::Int && !Scalar->isPointerTy())
      V = SignExtend ? B.CreateSExt(V, B.getInt64Ty())
                     : B.CreateZExt(V, B.getInt64Ty());
    Ins.push_back(V);
    OutTypes.push_back(V->getType());
    Outs.push_back(("={" + resultRegName(Slot) + "}").str());
    Tied.push_back(std::to_string(I));
    Kept.insert(resultRegName(Slot));
  }
  std::string Text = (CalleeStubTag + asmEscape(EntryName) + "\n\t").str();
  Text += scrubWideVectors(); // results are at most 128 bits wide
  for (const char *Reg : CallerSavedGPRs)
    if (!Kept.count(Reg)) {
      Text += zeroGPR(Reg);
      Clobbers.push_back(std::string("~{") + Reg + "}");
    }
  for (unsigned I = 0; I < NumXMM; ++I)
    if (!Kept.count("xmm" + std::to_string(I))) {
      Text += zeroXMM(I, HasAVX);
      Clobbers.push_back("~{xmm" + std::to_string(I) + "}");
    }
  clobberWideVectors(Clobbers);
  Clobbers.push_back("~{dirflag}");
  Clobbers.push_back("~{fpsr}");
  Clobbers.push_back("~{flags}");
  Text.erase(Text.find_last_not_of("\n\t") + 1);

  std::vector<std::string> All(Outs);
  All.insert(All.end(), Tied.begin(), Tied.end());
  All.insert(All.end(), Clobbers.begin(), Clobbers.end());
  Type *AsmRet = OutTypes.empty()       ? Type::getVoidTy(Ctx)
                 : OutTypes.size() == 1 ? OutTypes[0]
                                        : StructType::get(Ctx, OutTypes);
  SmallVector<Type *, 2> InTypes(OutTypes);
  auto *Asm = InlineAsm::get(FunctionType::get(AsmRet, InTypes, false), Text,
                             join(All, ","), /*hasSideEffects=*/true);
  CallInst *Out = B.CreateCall(Asm, Ins);
  markOwnAsm(*Out);
  return Result ? unpackResults(B, Out, Shape, RetTy) : nullptr;
}

} // namespace dipc
