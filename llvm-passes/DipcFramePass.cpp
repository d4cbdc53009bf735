// DipcFramePass.cpp - re-establishes, after the optimiser, what the caller
// stubs rely on: the inliner (also lld's, under full LTO) may have moved a
// stub into a function with a frame pointer or a red zone, and later passes
// may have appended code after a domain's end marker.
//
//   opt -load-pass-plugin=DipcPass.so -passes=dipc,dipc-frame in.ll
//
// A function that keeps a frame pointer (variable-sized or over-aligned
// stack objects) pins rbp, so the stub's ~{rbp} would be ignored: its stub
// calls move into a small outlined function without one, and its setjmp
// buffers get the frame pointer the runtime restores on a fault.
#include "DipcFramePass.h"
#include "CallerStubs.h"
#include "DomainLayout.h"
#include "StubAsm.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace dipc {

static bool isCallerStub(const CallBase &CB) {
  const auto *IA = dyn_cast<InlineAsm>(CB.getCalledOperand());
  return IA && StringRef(IA->getAsmString()).starts_with(CallerStubTag);
}

static SmallVector<CallBase *, 4> callerStubs(Function &F) {
  SmallVector<CallBase *, 4> Stubs;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I); CB && isCallerStub(*CB))
      Stubs.push_back(CB);
  return Stubs;
}

// Replaces the stub's asm call by a call (or invoke) of a function that
// holds just the asm and has no frame pointer.
static void outlineStub(CallBase *Stub) {
  Function &F = *Stub->getFunction();
  Module &M = *F.getParent();
  auto *Asm = cast<InlineAsm>(Stub->getCalledOperand());
  auto *Out =
      Function::Create(Asm->getFunctionType(), GlobalValue::InternalLinkage,
                       "__dipc_outlined." + F.getName(), M);
  for (StringRef Kind : {"target-cpu", "target-features", "tune-cpu"})
    if (F.hasFnAttribute(Kind))
      Out->addFnAttr(F.getFnAttribute(Kind));
  Out->addFnAttr(Attribute::NoInline);
  Out->setUWTableKind(UWTableKind::Default); // an asm unwind leaves through it
  Out->setSection(F.getSection());
  prepareStubCarrier(*Out);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "", Out));
  SmallVector<Value *, 8> Args(make_pointer_range(Out->args()));
  // rsp as the outlined function sees it, not its caller's.
  std::optional<unsigned> SPOperand = stackPointerOperand(*Asm);
  if (SPOperand)
    Args[*SPOperand] = B.CreateStackSave("dipc.sp");
  CallInst *Inner = B.CreateCall(Asm, Args);
  Inner->setAttributes(Stub->getAttributes());
  if (Out->getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Inner);

  SmallVector<Value *, 8> Operands(Stub->args());
  Value *CallerSP = nullptr;
  if (SPOperand) { // unused by the outlined function
    CallerSP = Operands[*SPOperand];
    Operands[*SPOperand] = PoisonValue::get(CallerSP->getType());
  }
  CallBase *Call;
  if (auto *II = dyn_cast<InvokeInst>(Stub))
    Call = InvokeInst::Create(Out, II->getNormalDest(), II->getUnwindDest(),
                              Operands, "", Stub->getIterator());
  else
    Call = CallInst::Create(Out, Operands, "", Stub->getIterator());
  Call->setDebugLoc(Stub->getDebugLoc());
  Call->takeName(Stub);
  Stub->replaceAllUsesWith(Call);
  Stub->eraseFromParent();
  if (auto *I = dyn_cast_or_null<Instruction>(CallerSP); I && I->use_empty())
    I->eraseFromParent();
}

// The runtime resumes a setjmp-style stub with rbp = buf[0]: in a function
// with a frame pointer that must be it (DipcPass wrote 0, for none).
static void storeFrameAddresses(Function &F) {
  for (Instruction &I : instructions(F)) {
    auto *II = dyn_cast<IntrinsicInst>(&I);
    if (!II || II->getIntrinsicID() != Intrinsic::eh_sjlj_setjmp)
      continue;
    IRBuilder<> B(II);
    B.CreateStore(B.CreateIntrinsic(Intrinsic::frameaddress, {B.getPtrTy()},
                                    {B.getInt32(0)}),
                  II->getArgOperand(0));
  }
}

PreservedAnalyses DipcFramePass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  SmallVector<Function *, 8> Carriers;
  for (Function &F : M)
    if (!F.isDeclaration() && !callerStubs(F).empty())
      Carriers.push_back(&F);
  for (Function *F : Carriers) {
    if (needsFramePointer(*F)) {
      for (CallBase *Stub : callerStubs(*F))
        outlineStub(Stub);
      storeFrameAddresses(*F);
      Changed = true;
    } else if (F->getFnAttribute("frame-pointer").getValueAsString() !=
                   "none" ||
               !F->hasFnAttribute(Attribute::NoRedZone)) {
      prepareStubCarrier(*F);
      Changed = true;
    }
  }
  keepEndMarkersLast(M);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace dipc
