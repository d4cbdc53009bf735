// SfiControlFlow.cpp - control-flow integrity of -fdipc-sfi code (issue #15
// item 1; the contract is "Control flow" in include/dipc/sfi.h).
//
//   opt -load-pass-plugin=DipcPass.so -passes=dipc-sfi,dipc-sfi-cfi in.ll
//
// Runs right after dipc-sfi, on every function defined in the unit (the
// passes' stubs included):
//
//   * the u32 DIPC_SFI_CALL_MAGIC as prefix data, right before the entry:
//     what an indirect call checks;
//   * a shadow stack of return addresses: at entry
//       ssp = %gs:SSP - 16; %gs:SSP = ssp
//       ssp[0] = *slot; ssp[1] = slot       (slot: the return address's)
//     and before the (one) return
//       ssp = %gs:SSP
//       if (ssp[1] == slot && ssp[0] == *slot) %gs:SSP = ssp + 16
//       else __dipc_sfi_ret_slow(slot)
//     left out of functions that cannot change a return address (no call
//     and no store outside their own frame) or never return;
//   * before each indirect call, the target's magic, compared without the
//     magic as an immediate (the check's bytes hold its negation, so no
//     instruction of a check is a valid target):
//       movl $-MAGIC, r; addl -4(target), r; jnz -> __dipc_sfi_check_call
//   * each indirectbr first compares its target with its listed labels
//     (one after the other: a cost linear in their number), or, when the
//     target is loaded from a constant table of its labels, bounds the
//     index; any other target goes to __dipc_sfi_cfi_fail (no return).
//
// The shadow stack's loads and stores are the pass's own (!dipc.sfi.check:
// never checked); the call check is the pass's own asm (OwnAsm.h).
// Refused: functions with other data before or at their entry (prefix or
// prologue data, patchable entries, kcfi or -fsanitize=function), and
// musttail calls (the epilogue must run after the callee returns).
#include "SfiControlFlow.h"
#include "Diagnostics.h"
#include "OwnAsm.h"
#include "SfiChecks.h"
#include "StubAsm.h"
#include "dipc/abi.h"
#include "dipc/sfi.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Format.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace dipc {

// Marks an instrumented function: a second run leaves it alone.
static constexpr StringLiteral DoneAttr = "dipc-sfi-cfi";
static constexpr StringLiteral SfiFlag = "dipc.sfi";
static constexpr unsigned X86GSAddressSpace = 256;
static constexpr uint64_t VaListSize = 24;

namespace {

class ControlFlow {
public:
  explicit ControlFlow(Module &M)
      : M(M), DL(M.getDataLayout()), Ctx(M.getContext()) {}
  bool run(Function &F);

private:
  Module &M;
  const DataLayout &DL;
  LLVMContext &Ctx;

  bool admissible(Function &F);
  bool inFrame(Value *Ptr, uint64_t Size) const;
  bool mayChangeReturnAddress(Function &F, CallBase **Stub = nullptr) const;
  CallBase *wrapperStub(Function &F) const;
  void shadowStack(Function &F);
  void checkTarget(Instruction &Before, Value *Target, bool ProxyOnly);
  void lowerIndirectBr(IndirectBrInst &IB);
  bool boundTableLoad(IndirectBrInst &IB,
                      const SmallPtrSetImpl<BasicBlock *> &Dests,
                      FunctionCallee FailFn);
  Constant *gsWord(uint64_t Off);
  Instruction *mark(Instruction *I);
  FunctionCallee runtimeFn(StringRef Name, FunctionType *Ty, bool NoReturn);
  void callSlowPath(IRBuilder<> &B, StringRef Name, Value *Arg);
  void checkPointerArguments(IRBuilder<> &B, const CallBase &CB);
};

} // namespace

Instruction *ControlFlow::mark(Instruction *I) {
  I->setMetadata(SfiOwnAccessMD, MDNode::get(Ctx, {}));
  return I;
}

Constant *ControlFlow::gsWord(uint64_t Off) {
  return ConstantExpr::getIntToPtr(
      ConstantInt::get(Type::getInt64Ty(Ctx), Off),
      PointerType::get(Ctx, X86GSAddressSpace));
}

FunctionCallee ControlFlow::runtimeFn(StringRef Name, FunctionType *Ty,
                                      bool NoReturn) {
  FunctionCallee FC = M.getOrInsertFunction(Name, Ty);
  if (auto *Fn = dyn_cast<Function>(FC.getCallee())) {
    Fn->addFnAttr(Attribute::NoUnwind);
    if (NoReturn) {
      Fn->addFnAttr(Attribute::NoReturn);
      Fn->addFnAttr(Attribute::Cold);
    }
  }
  return FC;
}

// Nothing else may sit at or right before the entry: the magic must be the
// 4 bytes before it.
bool ControlFlow::admissible(Function &F) {
  auto Refuse = [&](const Twine &Why, DebugLoc Loc = {}) {
    reportError(F,
                "-fdipc-sfi cannot protect the control flow of '" +
                    F.getName() + "': " + Why,
                Loc);
    return false;
  };
  if (!F.hasFnAttribute(DIPC_SFI_OWN_FUNCTION_ATTR) &&
      dipc_sfi_is_runtime_name(F.getName().str().c_str()))
    return Refuse("its name is one of the runtime's functions, which the "
                  "checks call (dipc/sfi.h): they would call it instead");
  if (F.hasPrefixData())
    return Refuse("it already has prefix data");
  if (F.hasPrologueData())
    return Refuse("it already has prologue data");
  if (F.hasFnAttribute("patchable-function-entry") ||
      F.hasFnAttribute("patchable-function-prefix"))
    return Refuse("it has a patchable function entry");
  if (F.hasMetadata("kcfi_type") || F.hasMetadata("func_sanitize"))
    return Refuse("it is instrumented by kcfi or -fsanitize=function, whose "
                  "data would sit where the call magic goes");
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I); CI && CI->isMustTailCall())
      return Refuse("it has a musttail call, after which its return "
                    "address could not be checked",
                    I.getDebugLoc());
  return true;
}

// The whole access inside a static alloca of F (its own frame): the same
// test as SfiChecks.cpp's, which it does not check either.
bool ControlFlow::inFrame(Value *Ptr, uint64_t Size) const {
  if (Ptr->getType()->getPointerAddressSpace() != 0)
    return false;
  APInt Off(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  Value *Base = Ptr->stripAndAccumulateConstantOffsets(
      DL, Off, /*AllowNonInbounds=*/true);
  const auto *AI = dyn_cast<AllocaInst>(Base);
  if (!AI || !AI->isStaticAlloca() || !Off.isSignedIntN(32) ||
      Off.isNegative())
    return false;
  std::optional<TypeSize> AS = AI->getAllocationSize(DL);
  return AS && !AS->isScalable() &&
         Off.getZExtValue() + Size <= AS->getFixedValue();
}

static bool match0(const Value *V) {
  const auto *C = dyn_cast<ConstantInt>(V);
  return C && C->isZero();
}

// A call of one of the runtime vector's functions (a load from a fixed
// address the runtime maps read-only, as the caller stubs'
// __dipc_setjmp_arm and dipc.h's dipc_errno): the runtime's, not the
// program's, pointers.
static bool isVectorCall(const CallBase &CB) {
  const Value *Callee = CB.getCalledOperand()->stripPointerCasts();
  if (const auto *LI = dyn_cast<LoadInst>(Callee))
    if (const auto *CE = dyn_cast<ConstantExpr>(LI->getPointerOperand());
        CE && CE->getOpcode() == Instruction::IntToPtr)
      if (const auto *Addr = dyn_cast<ConstantInt>(CE->getOperand(0));
          Addr && Addr->getZExtValue() >= DIPC_VECTOR_ADDR &&
          Addr->getZExtValue() < DIPC_VECTOR_ADDR + 4096)
        return true;
  return false;
}

static uint64_t storeSize(const DataLayout &DL, Type *Ty) {
  return DL.getTypeStoreSize(Ty).getFixedValue();
}

// Whether F may change a return address on the stack, its own or another
// frame's: it calls a function (the checks' slow path excepted: runtime
// code that never writes the stack it was called on), runs asm, or writes
// memory outside its own frame. With Stub: but for one caller stub, which
// it sets, and the try-style landing pad's report of the runtime.
bool ControlFlow::mayChangeReturnAddress(Function &F, CallBase **Stub) const {
  for (Instruction &I : instructions(F)) {
    if (auto *CB = dyn_cast<CallBase>(&I); CB && Stub) {
      if (stubCallTarget(*CB)) {
        if (*Stub)
          return true;
        *Stub = CB;
        continue;
      }
      // The try-style landing pad's report, after the stub. Not a
      // setjmp-style stub's arm and setjmp before it: across them the word
      // the wrapper read at entry would wait in its frame, where another
      // thread could rewrite it.
      const Function *Callee = CB->getCalledFunction();
      if (Callee && Callee->getName() == DIPC_FAULT_LANDED_FN)
        continue;
    }
    if (auto *SI = dyn_cast<StoreInst>(&I)) {
      if (!inFrame(SI->getPointerOperand(),
                   storeSize(DL, SI->getValueOperand()->getType())))
        return true;
    } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      if (!inFrame(RMW->getPointerOperand(),
                   storeSize(DL, RMW->getValOperand()->getType())))
        return true;
    } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
      if (!inFrame(CX->getPointerOperand(),
                   storeSize(DL, CX->getNewValOperand()->getType())))
        return true;
    } else if (auto *VA = dyn_cast<VAArgInst>(&I)) {
      if (!inFrame(VA->getPointerOperand(), VaListSize))
        return true;
    } else if (auto *CB = dyn_cast<CallBase>(&I)) {
      if (CB->isInlineAsm()) {
        if (!StringRef(cast<InlineAsm>(CB->getCalledOperand())
                           ->getAsmString())
                 .trim()
                 .empty())
          return true;
        continue;
      }
      if (auto *II = dyn_cast<IntrinsicInst>(CB)) {
        switch (II->getIntrinsicID()) {
        case Intrinsic::lifetime_start:
        case Intrinsic::lifetime_end:
        case Intrinsic::invariant_start:
        case Intrinsic::invariant_end:
        case Intrinsic::assume:
        case Intrinsic::experimental_noalias_scope_decl:
        case Intrinsic::sideeffect:
        case Intrinsic::donothing:
        case Intrinsic::var_annotation:
        case Intrinsic::ptr_annotation:
        case Intrinsic::annotation:
        case Intrinsic::prefetch:
        case Intrinsic::pseudoprobe:
        case Intrinsic::vaend:
        case Intrinsic::stacksave: // reads rsp (a caller stub's operand)
          continue;
        case Intrinsic::vastart:
          if (inFrame(II->getArgOperand(0), VaListSize))
            continue;
          return true;
        default:
          break;
        }
        if (auto *MI = dyn_cast<AnyMemIntrinsic>(II)) {
          auto *Len = dyn_cast<ConstantInt>(MI->getLength());
          if (Len && inFrame(MI->getRawDest(), Len->getZExtValue()))
            continue;
          return true;
        }
        if (!II->mayWriteToMemory())
          continue;
        return true;
      }
      if (const Function *Callee = CB->getCalledFunction();
          Callee && (Callee->getName() == DIPC_SFI_CHECK_FN ||
                     Callee->getName() == DIPC_SFI_PRESERVE_MOST_WRAPPER))
        continue;
      return true;
    } else if (I.mayWriteToMemory() && !isa<FenceInst>(I)) {
      return true;
    }
  }
  return false;
}

// Whether F only forwards: besides its calls and stores (judged by
// mayChangeReturnAddress), no instruction that computes (arithmetic) or
// reads memory of its own, so that the code around its stub is a few
// instructions: the times before the proxy and after its return, when
// another thread of the domain could rewrite the return address, stay as
// short as a shadow stack's check (attack round 28 won races on wrappers
// with long code around the call), and the return address it read at
// entry stays in a register until the stub.
static bool forwardsOnly(Function &F) {
  for (Instruction &I : instructions(F)) {
    if (isa<BinaryOperator>(I) || isa<UnaryOperator>(I) || isa<FCmpInst>(I) ||
        isa<VAArgInst>(I) || isa<AtomicRMWInst>(I) ||
        isa<AtomicCmpXchgInst>(I) || isa<FenceInst>(I))
      return false;
    if (auto *LI = dyn_cast<LoadInst>(&I); LI && !LI->getMetadata(SfiOwnAccessMD))
      return false;
  }
  return true;
}

// A wrapper's caller stub (dipc/sfi.h), or null: F returns, only forwards,
// its one call that could change a return address is that stub, and it
// runs at most once a call of F (no cycle): what the stub passes was
// computed at F's entry, with no other call in between.
CallBase *ControlFlow::wrapperStub(Function &F) const {
  CallBase *Stub = nullptr;
  if (none_of(F, [](BasicBlock &BB) {
        return isa<ReturnInst>(BB.getTerminator());
      }) ||
      !forwardsOnly(F) || mayChangeReturnAddress(F, &Stub) || !Stub)
    return nullptr;
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 4> Back;
  FindFunctionBackedges(F, Back);
  return Back.empty() ? Stub : nullptr;
}

// The push at entry (after the static allocas: before any other code) and
// the check before the return, which all returns share.
void ControlFlow::shadowStack(Function &F) {
  SmallVector<ReturnInst *, 4> Rets;
  for (BasicBlock &BB : F)
    if (auto *R = dyn_cast<ReturnInst>(BB.getTerminator()))
      Rets.push_back(R);
  if (Rets.empty() || !mayChangeReturnAddress(F))
    return;

  Type *I64 = Type::getInt64Ty(Ctx);
  Type *PtrTy = PointerType::get(Ctx, 0);
  Constant *SSP = gsWord(DIPC_SFI_SSP_GS_OFFSET);

  BasicBlock &Entry = F.getEntryBlock();
  BasicBlock::iterator At = Entry.getFirstInsertionPt();
  while (isa<AllocaInst>(*At) && cast<AllocaInst>(*At).isStaticAlloca())
    ++At;
  IRBuilder<> B(&Entry, At);
  Value *Slot = B.CreateIntrinsic(Intrinsic::addressofreturnaddress, {PtrTy},
                                  {}, nullptr, "dipc.cfi.slot");
  Value *Old = mark(B.CreateAlignedLoad(I64, SSP, Align(8), "dipc.cfi.ssp"));
  Value *New = B.CreateSub(Old, B.getInt64(16), "dipc.cfi.push");
  mark(B.CreateAlignedStore(New, SSP, Align(8)));
  Value *Top = B.CreateIntToPtr(New, PtrTy, "dipc.cfi.top");
  Value *RA =
      mark(B.CreateAlignedLoad(PtrTy, Slot, Align(8), "dipc.cfi.ra"));
  mark(B.CreateAlignedStore(RA, Top, Align(8)));
  mark(B.CreateAlignedStore(Slot, B.CreateConstInBoundsGEP1_64(I64, Top, 1),
                            Align(8)));

  // One return: the check's code once.
  ReturnInst *Ret = Rets.front();
  if (Rets.size() > 1) {
    auto *RetBB = BasicBlock::Create(Ctx, "dipc.cfi.ret", &F);
    PHINode *Phi = nullptr;
    if (!F.getReturnType()->isVoidTy())
      Phi = PHINode::Create(F.getReturnType(), Rets.size(), "dipc.cfi.retval",
                            RetBB);
    Ret = ReturnInst::Create(Ctx, Phi, RetBB);
    for (ReturnInst *R : Rets) {
      if (Phi)
        Phi->addIncoming(R->getReturnValue(), R->getParent());
      BranchInst::Create(RetBB, R->getParent());
      R->eraseFromParent();
    }
  }

  B.SetInsertPoint(Ret);
  Slot = B.CreateIntrinsic(Intrinsic::addressofreturnaddress, {PtrTy}, {},
                           nullptr, "dipc.cfi.slot");
  Value *Cur = mark(B.CreateAlignedLoad(I64, SSP, Align(8), "dipc.cfi.ssp"));
  Top = B.CreateIntToPtr(Cur, PtrTy, "dipc.cfi.top");
  Value *TopSlot = mark(B.CreateAlignedLoad(
      PtrTy, B.CreateConstInBoundsGEP1_64(I64, Top, 1), Align(8),
      "dipc.cfi.top.slot"));
  Value *TopRA =
      mark(B.CreateAlignedLoad(PtrTy, Top, Align(8), "dipc.cfi.top.ra"));
  // Volatile: what the slot holds now, whatever the optimiser knows.
  Value *NowRA = mark(B.CreateAlignedLoad(PtrTy, Slot, Align(8),
                                          /*isVolatile=*/true, "dipc.cfi.ra"));
  Value *Ok = B.CreateAnd(B.CreateICmpEQ(TopSlot, Slot),
                          B.CreateICmpEQ(TopRA, NowRA), "dipc.cfi.ok");
  Instruction *Pop, *Slow;
  SplitBlockAndInsertIfThenElse(
      Ok, Ret, &Pop, &Slow, MDBuilder(Ctx).createLikelyBranchWeights());
  Pop->getParent()->setName("dipc.cfi.pop");
  Slow->getParent()->setName("dipc.cfi.slow");
  B.SetInsertPoint(Pop);
  mark(B.CreateAlignedStore(B.CreateAdd(Cur, B.getInt64(16)), SSP, Align(8)));
  B.SetInsertPoint(Slow);
  callSlowPath(B, DIPC_SFI_RET_SLOW_FN, Slot);
}

// A cold call of the runtime's void slow path Name(ptr Arg). preserve_most
// (rt/sfi.S saves what its C code may clobber): the checked code keeps
// its values in registers across the cold call rather than saving
// callee-saved registers in its prologue for it (a caller stub's pushes).
void ControlFlow::callSlowPath(IRBuilder<> &B, StringRef Name, Value *Arg) {
  FunctionCallee FC =
      runtimeFn(Name, FunctionType::get(B.getVoidTy(), {B.getPtrTy()}, false),
                false);
  if (auto *Fn = dyn_cast<Function>(FC.getCallee()))
    Fn->setCallingConv(CallingConv::PreserveMost);
  CallInst *Call = B.CreateCall(FC, {Arg});
  Call->setCallingConv(CallingConv::PreserveMost);
  Call->addFnAttr(Attribute::Cold);
  Call->setTailCallKind(CallInst::TCK_NoTail);
}

// The target's 4 bytes before it against the magic: r = -MAGIC + [t - 4]
// is zero exactly when they hold it (ZF, read as a flag output).
// ProxyOnly (a wrapper's stub): the target must also lie in the runtime's
// arena, its proxies and import guards (dipc/sfi.h); anything else, a
// function of the caller's own domain its import slot was rewritten to
// included, is a control-flow fault (its slow path returns under `none`).
void ControlFlow::checkTarget(Instruction &Before, Value *Target,
                              bool ProxyOnly) {
  IRBuilder<> B(&Before);
  Type *PtrTy = B.getPtrTy();
  std::string Text;
  raw_string_ostream(Text)
      << "movl $$" << format_hex(uint32_t(0u - DIPC_SFI_CALL_MAGIC), 10)
      << ", $1\n\taddl -4($2), $1";
  auto *Ty = FunctionType::get(
      StructType::get(Ctx, {B.getInt8Ty(), B.getInt32Ty()}), {PtrTy}, false);
  auto *Asm = InlineAsm::get(
      Ty, Text, "={@ccnz},=&r,r,~{dirflag},~{fpsr},~{flags}",
      /*hasSideEffects=*/true);
  CallInst *Check = B.CreateCall(Asm, {Target}, "dipc.cfi.magic");
  markOwnAsm(*Check);
  Value *Bad = B.CreateICmpNE(B.CreateExtractValue(Check, 0), B.getInt8(0),
                              "dipc.cfi.bad");
  if (ProxyOnly)
    Bad = B.CreateOr(
        Bad,
        B.CreateICmpUGE(B.CreateSub(B.CreatePtrToInt(Target, B.getInt64Ty()),
                                    B.getInt64(DIPC_RUNTIME_ARENA_ADDR)),
                        B.getInt64(DIPC_RUNTIME_ARENA_SIZE)),
        "dipc.cfi.bad");
  Instruction *Slow = SplitBlockAndInsertIfThen(
      Bad, &Before, /*Unreachable=*/false,
      MDBuilder(Ctx).createUnlikelyBranchWeights());
  Slow->getParent()->setName("dipc.cfi.call.slow");
  B.SetInsertPoint(Slow);
  if (ProxyOnly) {
    callSlowPath(B, DIPC_SFI_CHECK_PROXY_CALL_FN, Target);
    return;
  }
  callSlowPath(B, DIPC_SFI_CHECK_CALL_FN, Target);
  if (auto *CB = dyn_cast<CallBase>(&Before); CB && !CB->isInlineAsm())
    checkPointerArguments(B, *CB);
}

// A target without the magic that the slow path let through is an
// uninstrumented library's function, which reads and writes through its
// pointer arguments unchecked: as for a direct call of a C library
// function (SfiChecks.cpp), the first byte of each must be one the running
// domain may read (a null pointer counts as the runtime vector's page),
// so that modf reached through a pointer cannot write the runtime's memory.
void ControlFlow::checkPointerArguments(IRBuilder<> &B, const CallBase &CB) {
  Type *I64 = B.getInt64Ty();
  FunctionCallee Check = runtimeFn(
      DIPC_SFI_CHECK_FN,
      FunctionType::get(B.getVoidTy(), {I64, I64, B.getInt32Ty()}, false),
      false);
  unsigned Fixed = CB.getFunctionType()->getNumParams();
  for (unsigned Arg = 0; Arg < CB.arg_size() && Arg < Fixed; ++Arg) {
    Value *P = CB.getArgOperand(Arg);
    if (!P->getType()->isPointerTy() ||
        P->getType()->getPointerAddressSpace() != 0 ||
        CB.isByValArgument(Arg))
      continue;
    Value *Addr = B.CreateSelect(B.CreateIsNull(P), B.getInt64(DIPC_VECTOR_ADDR),
                                 B.CreatePtrToInt(P, I64), "dipc.cfi.arg");
    CallInst *Call =
        B.CreateCall(Check, {Addr, B.getInt64(1), B.getInt32(0)});
    Call->addFnAttr(Attribute::Cold);
    Call->setTailCallKind(CallInst::TCK_NoTail);
  }
}

// The common computed goto, an interpreter's dispatch:
//   indirectbr (load (gep [N x ptr] @T, 0, i)), [...]
// with @T a constant table of this function's labels (a definition no
// other object replaces, in memory the program cannot write: read-only
// after relocation) that are all the indirectbr's: then i <u N suffices,
// checked before the load, whatever the number of labels.
bool ControlFlow::boundTableLoad(IndirectBrInst &IB,
                                 const SmallPtrSetImpl<BasicBlock *> &Dests,
                                 FunctionCallee FailFn) {
  auto *Load = dyn_cast<LoadInst>(IB.getAddress());
  if (!Load || !Load->isSimple())
    return false;
  auto *GEP = dyn_cast<GetElementPtrInst>(Load->getPointerOperand());
  if (!GEP)
    return false;
  auto *T = dyn_cast<GlobalVariable>(GEP->getPointerOperand());
  if (!T || !T->isConstant() || !T->hasDefinitiveInitializer() ||
      T->isInterposable())
    return false;
  auto *Init = dyn_cast<ConstantArray>(T->getInitializer());
  if (!Init || !Init->getType()->getElementType()->isPointerTy())
    return false;
  uint64_t N = Init->getNumOperands();
  for (const Use &E : Init->operands()) {
    auto *BA = dyn_cast<BlockAddress>(E.get());
    if (!BA || BA->getFunction() != IB.getFunction() ||
        !Dests.contains(BA->getBasicBlock()))
      return false;
  }
  // gep [N x ptr], @T, 0, i  or  gep ptr, @T, i: entry i, read whole.
  Value *Index;
  Type *Src = GEP->getSourceElementType();
  if (Src == Init->getType() && GEP->getNumIndices() == 2 &&
      match0(GEP->getOperand(1)))
    Index = GEP->getOperand(2);
  else if (Src->isPointerTy() && GEP->getNumIndices() == 1)
    Index = GEP->getOperand(1);
  else
    return false;
  if (!Load->getType()->isPointerTy() || !Index->getType()->isIntegerTy() ||
      Index->getType()->getIntegerBitWidth() > 64)
    return false;
  IRBuilder<> B(Load);
  Value *I64 = B.CreateSExt(Index, B.getInt64Ty()); // as the gep reads it
  Value *Out = B.CreateICmpUGE(I64, B.getInt64(N), "dipc.cfi.branch.out");
  Instruction *Then = SplitBlockAndInsertIfThen(
      Out, Load, /*Unreachable=*/true,
      MDBuilder(Ctx).createUnlikelyBranchWeights());
  Then->getParent()->setName("dipc.cfi.branch.fail");
  B.SetInsertPoint(Then);
  CallInst *Fail =
      B.CreateCall(FailFn, {B.getInt32(DIPC_SFI_CFI_BRANCH), GEP});
  Fail->setDoesNotReturn();
  Fail->setTailCallKind(CallInst::TCK_NoTail);
  return true;
}

// indirectbr t, [d0, d1, ...] goes on only when t is one of its labels:
//   t == &&d0 || t == &&d1 || ... ? indirectbr t : __dipc_sfi_cfi_fail(3, t)
// The jump itself stays indirect: LLVM defines a label's address only as
// indirectbr's operand (it may merge blocks no indirectbr reaches, and
// comparing label addresses is undefined without one).
void ControlFlow::lowerIndirectBr(IndirectBrInst &IB) {
  Function &F = *IB.getFunction();
  BasicBlock *BB = IB.getParent();
  Value *Target = IB.getAddress();
  SmallVector<BasicBlock *, 8> Dests;
  SmallPtrSet<BasicBlock *, 8> Seen;
  for (BasicBlock *D : IB.successors())
    if (Seen.insert(D).second)
      Dests.push_back(D);

  FunctionCallee FailFn = runtimeFn(
      DIPC_SFI_CFI_FAIL_FN,
      FunctionType::get(Type::getVoidTy(Ctx),
                        {Type::getInt32Ty(Ctx), PointerType::get(Ctx, 0)},
                        false),
      true);
  if (boundTableLoad(IB, Seen, FailFn))
    return;

  // The jump, in a block of its own that every match reaches.
  BasicBlock *OkBB = BB->splitBasicBlock(&IB, "dipc.cfi.branch.ok");
  BB->getTerminator()->eraseFromParent();
  auto *FailBB = BasicBlock::Create(Ctx, "dipc.cfi.branch.fail", &F);
  IRBuilder<> B(FailBB);
  CallInst *Fail =
      B.CreateCall(FailFn, {B.getInt32(DIPC_SFI_CFI_BRANCH), Target});
  Fail->setDoesNotReturn();
  Fail->setTailCallKind(CallInst::TCK_NoTail);
  B.CreateUnreachable();

  B.SetInsertPoint(BB);
  for (size_t I = 0; I < Dests.size(); ++I) {
    BasicBlock *Next =
        I + 1 < Dests.size()
            ? BasicBlock::Create(Ctx, "dipc.cfi.branch", &F, OkBB)
            : FailBB;
    B.CreateCondBr(B.CreateICmpEQ(Target, BlockAddress::get(&F, Dests[I])),
                   OkBB, Next);
    B.SetInsertPoint(Next);
  }
  if (Dests.empty())
    B.CreateBr(FailBB);
}

static bool isIndirectCall(const CallBase &CB) {
  if (CB.isInlineAsm() || isa<IntrinsicInst>(CB))
    return false;
  const Value *Callee = CB.getCalledOperand()->stripPointerCasts();
  if (isa<Function>(Callee) || isa<GlobalAlias>(Callee) ||
      isa<GlobalIFunc>(Callee))
    return false;
  return !isVectorCall(CB);
}

bool ControlFlow::run(Function &F) {
  // The domains' zero-byte text markers (DomainLayout.cpp) are not code:
  // prefix data would move them off their page boundary.
  if (F.hasFnAttribute(Attribute::Naked) &&
      isa<UnreachableInst>(F.getEntryBlock().front()))
    return false;
  // A callee stub's prefix is its entry's record (CalleeStubs.cpp, read
  // by the runtime): it is reached through proxies only, so it has no
  // magic, and an indirect call of it goes to the call slow path. An
  // anycall stub's is the back-link to its record (MetadataRecords.cpp):
  // the call slow path allows it by the runtime's anycall table.
  bool CalleeStub = (F.getName().starts_with("__dipc_callee.") ||
                     F.getName().starts_with("__dipc_anycall.")) &&
                    F.hasPrefixData();
  if (!CalleeStub && !admissible(F))
    return false;
  if (!CalleeStub)
    F.setPrefixData(
        ConstantInt::get(Type::getInt32Ty(Ctx), DIPC_SFI_CALL_MAGIC));
  F.addFnAttr(DoneAttr);
  if (F.hasFnAttribute(Attribute::Naked))
    return true; // the passes' own stubs: asm only
  // A wrapper's stub hands its proxy the return slot instead of the
  // function pushing a shadow-stack entry (dipc/sfi.h).
  CallBase *Wrapped = wrapperStub(F);
  if (Wrapped)
    Wrapped = passReturnSlot(*Wrapped);
  SmallVector<std::pair<Instruction *, Value *>, 8> Targets;
  SmallVector<IndirectBrInst *, 2> Branches;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I); CB && isIndirectCall(*CB))
      Targets.push_back({CB, CB->getCalledOperand()});
    else if (Value *Proxy = CB ? stubCallTarget(*CB) : nullptr)
      // A caller stub's proxy, loaded from its import slot, which the
      // calling domain may write: checked before the stub's asm calls it.
      Targets.push_back({CB, Proxy});
    else if (auto *IB = dyn_cast<IndirectBrInst>(&I))
      Branches.push_back(IB);
  if (!Wrapped)
    shadowStack(F);
  for (auto [Before, Target] : Targets)
    checkTarget(*Before, Target, Before == Wrapped);
  for (IndirectBrInst *IB : Branches)
    lowerIndirectBr(*IB);
  return true;
}

PreservedAnalyses DipcSfiCfiPass::run(Module &M, ModuleAnalysisManager &) {
  if (!Always && !M.getModuleFlag(SfiFlag))
    return PreservedAnalyses::all();
  ControlFlow CF(M);
  bool Changed = false;
  // Not the runtime functions this adds (declarations).
  for (Function &F : M)
    if (!F.isDeclaration() && !F.hasFnAttribute(DoneAttr))
      Changed |= CF.run(F);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace dipc
