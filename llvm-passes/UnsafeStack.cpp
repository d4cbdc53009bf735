// UnsafeStack.cpp - every function's escaping locals move to the thread's
// unsafe stack (docs/compiler.md, "Stacks"; docs/runtime.md §2).
//
//   opt -load-pass-plugin=DipcPass.so -passes=dipc-unsafe-stack in.ll
//
// Each domain runs on stacks tagged with its own protection key, and a proxy
// runs every callee on a stack of the callee's domain, so no domain reaches
// another's frames. A local whose address escapes (passed to a call that may
// keep or forward it, stored, returned, turned into an integer, given to
// inline asm such as a caller stub) may be handed to another domain on
// purpose, like the buffer a caller lends its callee: such locals live on
// the thread's unsafe stack instead, under the key every domain shares.
// Return addresses, spills and every non-escaping local stay on the
// domain's own stack, out of other domains' reach.
//
// The unsafe stack pointer is the qword at %gs:DIPC_USP_GS_OFFSET (the
// thread's public page); the bounds of the unsafe-stack region are in the
// runtime vector (dipc/abi.h). Any domain can write the pointer (of any
// thread), so the prologue loads it once, checks that the frame it carves
// lies inside the region (else ud2), publishes the new top and uses only
// the checked value; a forged pointer can thus only move a frame onto other
// unsafe memory, never onto a stack:
//
//   movq %gs:USP, OLD;  leaq -SIZE(OLD), NEW;  andq $-ALIGN, NEW
//   UNSAFE_LO <= NEW < UNSAFE_HI and NEW + SIZE <= UNSAFE_HI, else ud2
//   movq NEW, %gs:USP
//   ... the locals at NEW + offset ...
//   movq OLD, %gs:USP             before every return
//
// Landing pads and returns from setjmp-like calls store NEW again (the
// frames they skipped left the pointer lower). Locals that hold control
// data stay on the domain's stack whatever their uses: setjmp buffers (the
// caller stubs' included) and va_lists. Variable-sized locals and byval
// arguments stay too: another domain faults on them (its call returns
// DIPC_EFAULT) instead of reaching them. (Under -fdipc-sfi, those of them
// a check may reach move on to the data mirror: SfiDataFrame.cpp.)
#include "UnsafeStack.h"
#include "FrameLayout.h"
#include "OwnAsm.h"
#include "dipc/abi.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include <algorithm>

using namespace llvm;

static cl::opt<bool> EnableUnsafeStack(
    "dipc-unsafe-stack", cl::init(true), cl::Hidden,
    cl::desc("Move escaping locals to the thread's unsafe stack (off: they "
             "stay on the domain's own stack, out of other domains' reach, "
             "and cannot be lent to them)"));

namespace dipc {

// A call whose pointer arguments are control data: setjmp-like functions,
// __builtin_setjmp/longjmp and the va_list intrinsics.
static bool takesControlData(const CallBase &CB) {
  if (const auto *II = dyn_cast<IntrinsicInst>(&CB)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::eh_sjlj_setjmp:
    case Intrinsic::eh_sjlj_longjmp:
    case Intrinsic::vastart:
    case Intrinsic::vacopy:
    case Intrinsic::vaend:
      return true;
    default:
      return false;
    }
  }
  return CB.hasFnAttr(Attribute::ReturnsTwice);
}

static bool holdsControlData(const AllocaInst &AI) {
  SmallVector<const Value *, 8> Work{&AI};
  SmallPtrSet<const Value *, 8> Seen{&AI};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (const auto *CB = dyn_cast<CallBase>(U)) {
        if (takesControlData(*CB))
          return true;
      } else if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode,
                     SelectInst>(U) &&
                 Seen.insert(U).second) {
        Work.push_back(U);
      }
    }
  }
  return false;
}

namespace {

// LLVM's capture tracking, except that an access through the pointer never
// hands it on, volatile or not (LLVM counts volatile accesses as captures:
// the address is observable). Anything else that may let the address out
// (a call that may keep it, a store of it, a return, a comparison, a cast
// to an integer) makes the local escape.
struct EscapeTracker : CaptureTracker {
  bool Escapes = false;
  void tooManyUses() override { Escapes = true; }
  bool captured(const Use *U) override {
    const auto *I = cast<Instruction>(U->getUser());
    if (const auto *LI = dyn_cast<LoadInst>(I);
        LI && U->get() == LI->getPointerOperand())
      return false;
    if (const auto *SI = dyn_cast<StoreInst>(I);
        SI && U->getOperandNo() == SI->getPointerOperandIndex())
      return false;
    if (const auto *RMW = dyn_cast<AtomicRMWInst>(I);
        RMW && U->getOperandNo() == RMW->getPointerOperandIndex())
      return false;
    if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(I);
        CX && U->getOperandNo() == CX->getPointerOperandIndex())
      return false;
    if (const auto *MI = dyn_cast<MemIntrinsic>(I);
        MI && (U->get() == MI->getRawDest() ||
               (isa<MemTransferInst>(MI) &&
                U->get() == cast<MemTransferInst>(MI)->getRawSource())))
      return false;
    Escapes = true;
    return true;
  }
};

} // namespace

static bool escapes(const AllocaInst &AI) {
  EscapeTracker T;
  // Explore every use: a tracker that gives up calls the local escaping,
  // which would expose it for nothing.
  PointerMayBeCaptured(&AI, &T, /*MaxUsesToExplore=*/1u << 20);
  return T.Escapes;
}

static bool movesToUnsafeStack(const AllocaInst &AI) {
  return AI.isStaticAlloca() && !AI.isSwiftError() &&
         !AI.isUsedWithInAlloca() && escapes(AI) && !holdsControlData(AI);
}

static std::string hex(uint64_t V) {
  std::string S;
  raw_string_ostream(S) << format_hex(V, 0);
  return S;
}

// The checked prologue: returns {NEW, OLD, scratch}.
static InlineAsm *prologueAsm(LLVMContext &Ctx, uint64_t Size, Align A) {
  Type *I64 = Type::getInt64Ty(Ctx);
  std::string USP = "%gs:" + hex(DIPC_USP_GS_OFFSET);
  std::string Lo = hex(DIPC_VECTOR_UNSAFE_LO), Hi = hex(DIPC_VECTOR_UNSAFE_HI);
  std::string Text;
  raw_string_ostream OS(Text);
  OS << "# dipc unsafe frame: " << Size << " bytes\n\t";
  OS << "movq " << USP << ", $1\n\t";          // OLD
  OS << "leaq -" << Size << "($1), $0\n\t";    // NEW = OLD - Size,
  OS << "andq $$-" << A.value() << ", $0\n\t"; // aligned down
  OS << "cmpq " << Lo << ", $0\n\tjb 1f\n\t";  // NEW >= UNSAFE_LO
  OS << "cmpq " << Hi << ", $0\n\tjae 1f\n\t"; // NEW < UNSAFE_HI
  OS << "leaq " << Size << "($0), $2\n\t";     // NEW + Size
  OS << "cmpq " << Hi << ", $2\n\tjbe 2f\n";   //   <= UNSAFE_HI
  OS << "1:\n\tud2\n";
  OS << "2:\n\tmovq $0, " << USP; // publish NEW
  auto *Ty = FunctionType::get(StructType::get(Ctx, {I64, I64, I64}), false);
  return InlineAsm::get(Ty, Text,
                        "=&r,=&r,=&r,~{memory},~{dirflag},~{fpsr},~{flags}",
                        /*hasSideEffects=*/true);
}

// movq VALUE, %gs:USP; a compiler barrier, so that no access to the frame
// moves across it.
static void storeUnsafeStackPointer(IRBuilder<> &B, Value *V) {
  LLVMContext &Ctx = B.getContext();
  auto *Ty = FunctionType::get(Type::getVoidTy(Ctx), {V->getType()}, false);
  markOwnAsm(*B.CreateCall(
      InlineAsm::get(Ty, "movq $0, %gs:" + hex(DIPC_USP_GS_OFFSET),
                     "r,~{memory},~{dirflag},~{fpsr},~{flags}",
                     /*hasSideEffects=*/true),
      {V}));
}

static bool moveEscapingLocals(Function &F) {
  if (F.isDeclaration() || F.hasFnAttribute(Attribute::Naked))
    return false;
  const DataLayout &DL = F.getDataLayout();
  SmallVector<FrameSlot, 8> Locals;
  for (Instruction &I : F.getEntryBlock()) {
    auto *AI = dyn_cast<AllocaInst>(&I);
    if (!AI || !movesToUnsafeStack(*AI))
      continue;
    std::optional<TypeSize> Size = AI->getAllocationSize(DL);
    if (!Size || Size->isScalable())
      continue;
    Align A =
        std::max(AI->getAlign(), DL.getPrefTypeAlign(AI->getAllocatedType()));
    Locals.push_back({AI, std::max<uint64_t>(Size->getFixedValue(), 1), A});
  }
  if (Locals.empty())
    return false;
  uint64_t FrameSize = layOutFrame(Locals);
  if (FrameSize >= (1u << 30))
    return false; // stays on the domain's stack: other domains fault on it
  Align FrameAlign = std::max(Locals.front().Alignment, Align(16));

  // After the entry block's leading allocas, so that they stay static.
  BasicBlock &Entry = F.getEntryBlock();
  BasicBlock::iterator At = Entry.getFirstInsertionPt();
  while (isa<AllocaInst>(*At))
    ++At;
  LLVMContext &Ctx = F.getContext();
  IRBuilder<> B(&Entry, At);
  if (DISubprogram *SP = F.getSubprogram())
    B.SetCurrentDebugLocation(DILocation::get(Ctx, SP->getScopeLine(), 0, SP));
  CallInst *Frame = B.CreateCall(prologueAsm(Ctx, FrameSize, FrameAlign), {},
                                 "dipc.unsafe.frame");
  markOwnAsm(*Frame);
  Value *New = B.CreateExtractValue(Frame, 0, "dipc.unsafe.top");
  Value *Old = B.CreateExtractValue(Frame, 1, "dipc.unsafe.caller");
  Value *Base = B.CreateIntToPtr(New, PointerType::get(Ctx, 0));
  SmallVector<Instruction *, 8> Dead; // lifetime markers: not of an alloca
  for (FrameSlot &L : Locals) {
    auto *AI = cast<AllocaInst>(L.V);
    Value *Addr = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, L.Offset,
                                               AI->getName() + ".unsafe");
    for (User *U : AI->users())
      if (auto *II = dyn_cast<IntrinsicInst>(U);
          II && II->isLifetimeStartOrEnd())
        Dead.push_back(II);
    AI->replaceAllUsesWith(Addr);
  }

  SmallVector<Instruction *, 4> Returns, Restores;
  for (Instruction &I : instructions(F)) {
    if (auto *RI = dyn_cast<ReturnInst>(&I)) {
      CallInst *MustTail = RI->getParent()->getTerminatingMustTailCall();
      Returns.push_back(MustTail ? static_cast<Instruction *>(MustTail) : RI);
    } else if (isa<LandingPadInst>(I)) {
      Restores.push_back(I.getNextNode());
    } else if (auto *CI = dyn_cast<CallInst>(&I); CI && CI->canReturnTwice()) {
      Restores.push_back(CI->getNextNode());
    }
  }
  for (Instruction *I : Returns) {
    B.SetInsertPoint(I);
    storeUnsafeStackPointer(B, Old);
  }
  for (Instruction *I : Restores) {
    B.SetInsertPoint(I);
    storeUnsafeStackPointer(B, New);
  }
  for (Instruction *I : Dead)
    I->eraseFromParent();
  for (FrameSlot &L : Locals)
    cast<AllocaInst>(L.V)->eraseFromParent();
  return true;
}

PreservedAnalyses DipcUnsafeStackPass::run(Module &M, ModuleAnalysisManager &) {
  if (!EnableUnsafeStack)
    return PreservedAnalyses::all();
  bool Changed = false;
  for (Function &F : M)
    Changed |= moveEscapingLocals(F);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace dipc
