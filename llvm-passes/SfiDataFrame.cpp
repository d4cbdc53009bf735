// SfiDataFrame.cpp - under -fdipc-sfi, the locals a check may reach move
// off the callee stack, to its data mirror (include/dipc/sfi.h, "Data
// frames"; docs/compiler.md, "Stacks").
//
// No checked write may land on a callee stack: its frames hold return
// addresses, spills and the callers' saved registers, which compiled code
// trusts (a domain had rewritten the saved copy of a pointer its caller
// checked, and the caller read another domain's secret through it). A
// local whose every access lies at a constant offset inside it needs no
// check (SfiChecks.cpp, inFrame) and stays. Any other (indexed at run
// time, passed to a call, a va_list, a setjmp buffer, a variable-sized
// local, every byval argument that is used) moves to the mirror of a
// reservation of its size in the frame:
//
//   delta = DELTA if the page of %rsp is tagged STACK, else 0   (entry)
//   %dipc.data = alloca [SIZE x i8]             the reservation
//   frame = %dipc.data - delta                  each local at frame + offset
//
// where the SFI checks then allow its accesses as the domain's memory. A
// variable-sized local keeps its alloca as the reservation and is used at
// its mirror; a byval argument is copied into the frame at entry, the
// copy's read checked (the ABI's copy is only there if the caller called
// with this signature). The
// mirror follows the stack pointer, so threads, recovery, longjmp and
// unwinding need nothing more. __builtin_setjmp buffers (the caller
// stubs' recovery buffers, whose context the runtime resumes) stay in the
// frame whatever their uses: a check that reaches one refuses the write.
#include "SfiDataFrame.h"
#include "FrameLayout.h"
#include "OwnAsm.h"
#include "SfiChecks.h"
#include "dipc/sfi.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace dipc {

// Longest memcpy or memset of a local that stays in the frame: the code
// generator expands it (below) into that many bytes of moves at most.
static constexpr uint64_t MaxInlineCopy = 256;

// Whether every use of Root (a frame object: a static alloca; a byval
// argument never is one) is an access the SFI pass leaves unchecked, as
// inside it, or a marker; pointers derived at constant offsets are
// followed. A memcpy or memset of it (in MemOps) must then be expanded
// inline: as a call of libc's, the loader would check its stack range as
// a write, and refuse it.
static bool onlyInFrame(Value *Root, const DataLayout &DL,
                        SmallVectorImpl<AnyMemIntrinsic *> &MemOps) {
  SmallVector<Value *, 8> Work{Root};
  SmallPtrSet<Value *, 8> Seen{Root};
  auto Inside = [&](Value *Ptr, uint64_t Size) {
    return insideFrameObject(Ptr, Size, DL) &&
           baseAndOffset(Ptr, DL).first == Root;
  };
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (Use &U : V->uses()) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      if (!I)
        return false;
      if (auto *GEP = dyn_cast<GetElementPtrInst>(I)) {
        if (!GEP->hasAllConstantIndices())
          return false;
        if (Seen.insert(GEP).second)
          Work.push_back(GEP);
      } else if (isa<BitCastInst>(I)) {
        if (Seen.insert(I).second)
          Work.push_back(I);
      } else if (auto *LI = dyn_cast<LoadInst>(I)) {
        if (!Inside(V, storeSize(DL, LI->getType())))
          return false;
      } else if (auto *SI = dyn_cast<StoreInst>(I)) {
        if (U.getOperandNo() != SI->getPointerOperandIndex() ||
            !Inside(V, storeSize(DL, SI->getValueOperand()->getType())))
          return false;
      } else if (auto *RMW = dyn_cast<AtomicRMWInst>(I)) {
        if (U.getOperandNo() != RMW->getPointerOperandIndex() ||
            !Inside(V, storeSize(DL, RMW->getValOperand()->getType())))
          return false;
      } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(I)) {
        if (U.getOperandNo() != CX->getPointerOperandIndex() ||
            !Inside(V, storeSize(DL, CX->getNewValOperand()->getType())))
          return false;
      } else if (isa<VAArgInst>(I)) {
        if (!Inside(V, VaListSize))
          return false;
      } else if (auto *MI = dyn_cast<AnyMemIntrinsic>(I)) {
        auto *Len = dyn_cast<ConstantInt>(MI->getLength());
        if (!Len || !isa<MemCpyInst, MemSetInst>(MI) ||
            U.get() == MI->getLength() ||
            Len->getZExtValue() > MaxInlineCopy ||
            !Inside(V, Len->getZExtValue()))
          return false;
        MemOps.push_back(MI);
      } else if (auto *II = dyn_cast<IntrinsicInst>(I)) {
        if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
          continue;
        Intrinsic::ID ID = II->getIntrinsicID();
        if ((ID != Intrinsic::vastart && ID != Intrinsic::vacopy &&
             ID != Intrinsic::vaend) ||
            !Inside(V, VaListSize))
          return false;
      } else if (auto *CB = dyn_cast<CallBase>(I)) {
        if (isOwnAsm(*CB))
          continue; // the stubs' own: they check nothing
        if (!CB->isArgOperand(&U))
          return false;
        Type *ByVal = CB->getParamByValType(CB->getArgOperandNo(&U));
        if (!ByVal ||
            !Inside(V, DL.getTypeAllocSize(ByVal).getFixedValue()))
          return false;
      } else {
        return false; // a phi, a select, a cast to an integer, a return
      }
    }
  }
  return true;
}

// Whether A is a __builtin_setjmp buffer.
static bool isSjLjBuffer(const AllocaInst &A) {
  SmallVector<const Value *, 8> Work{&A};
  SmallPtrSet<const Value *, 8> Seen{&A};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (const auto *II = dyn_cast<IntrinsicInst>(U);
          II && II->getIntrinsicID() == Intrinsic::eh_sjlj_setjmp)
        return true;
      if (isa<GetElementPtrInst, BitCastInst>(U) && Seen.insert(U).second)
        Work.push_back(U);
    }
  }
  return false;
}

// memcpy and memset as their inline forms, which never become calls.
static void expandInline(ArrayRef<AnyMemIntrinsic *> MemOps) {
  SmallPtrSet<AnyMemIntrinsic *, 8> Done;
  for (AnyMemIntrinsic *MI : MemOps) {
    if (!Done.insert(MI).second ||
        isa<MemCpyInlineInst, MemSetInlineInst>(MI))
      continue;
    IRBuilder<> B(MI);
    CallInst *New;
    if (auto *MC = dyn_cast<MemCpyInst>(MI))
      New = B.CreateMemCpyInline(MC->getRawDest(), MC->getDestAlign(),
                                 MC->getRawSource(), MC->getSourceAlign(),
                                 MC->getLength(), MC->isVolatile());
    else {
      auto *MS = cast<MemSetInst>(MI);
      New = B.CreateMemSetInline(MS->getRawDest(), MS->getDestAlign(),
                                 MS->getValue(), MS->getLength(),
                                 MS->isVolatile());
    }
    New->copyMetadata(*MI);
    MI->eraseFromParent();
  }
}

static std::string hex(uint64_t V) {
  std::string S;
  raw_string_ostream(S) << format_hex(V, 0);
  return S;
}

// delta: DELTA if the page of the stack pointer is tagged STACK, else 0.
static Value *emitDelta(IRBuilder<> &B) {
  LLVMContext &Ctx = B.getContext();
  Type *I64 = B.getInt64Ty();
  std::string Text;
  raw_string_ostream OS(Text);
  OS << "# dipc data frame: the mirror's offset\n\t";
  OS << "movq %rsp, $0\n\tshrq $$" << DIPC_SFI_PAGE_SHIFT << ", $0\n\t";
  OS << "movabsq $$" << hex(DIPC_SFI_SHADOW_ADDR) << ", $1\n\t";
  OS << "movzwl ($1,$0,2), ${1:k}\n\t";
  OS << "xorl ${0:k}, ${0:k}\n\t";
  OS << "cmpl $$" << DIPC_SFI_TAG_STACK << ", ${1:k}\n\t";
  OS << "movabsq $$" << hex(DIPC_SFI_DATA_MIRROR_DELTA) << ", $1\n\t";
  OS << "cmoveq $1, $0";
  auto *Ty = FunctionType::get(StructType::get(Ctx, {I64, I64}), false);
  CallInst *Call = B.CreateCall(
      InlineAsm::get(Ty, Text, "=&r,=&r,~{dirflag},~{fpsr},~{flags}",
                     /*hasSideEffects=*/true),
      {}, "dipc.data.asm");
  markOwnAsm(*Call);
  return B.CreateExtractValue(Call, 0, "dipc.data.delta");
}

// Ptr's mirror: Ptr - Delta, opaque to the optimiser (no pointer
// arithmetic it could reason about past the reservation's end).
static Value *emitMirror(IRBuilder<> &B, Value *Ptr, Align A, Value *Delta,
                         const Twine &Name) {
  auto *Ty = FunctionType::get(B.getPtrTy(), {B.getPtrTy(), B.getInt64Ty()},
                               false);
  CallInst *Call = B.CreateCall(
      InlineAsm::get(Ty, "subq $2, $0", "=r,0,r,~{dirflag},~{fpsr},~{flags}",
                     /*hasSideEffects=*/false),
      {Ptr, Delta}, Name);
  markOwnAsm(*Call);
  // The offset is a multiple of every alignment up to a page's.
  Call->addRetAttr(Attribute::getWithAlignment(B.getContext(), A));
  return Call;
}

bool moveCheckedLocals(Function &F) {
  if (F.isDeclaration() || F.hasFnAttribute(Attribute::Naked))
    return false;
  const DataLayout &DL = F.getDataLayout();
  SmallVector<FrameSlot, 8> Slots;
  SmallVector<AllocaInst *, 4> Dynamic;
  SmallVector<AnyMemIntrinsic *, 4> InlineCopies;
  for (Instruction &I : instructions(F)) {
    auto *AI = dyn_cast<AllocaInst>(&I);
    if (!AI || AI->isSwiftError() || AI->isUsedWithInAlloca())
      continue;
    if (!AI->isStaticAlloca()) {
      Dynamic.push_back(AI);
      continue;
    }
    if (isSjLjBuffer(*AI))
      continue;
    SmallVector<AnyMemIntrinsic *, 4> MemOps;
    if (onlyInFrame(AI, DL, MemOps)) {
      InlineCopies.append(MemOps.begin(), MemOps.end());
      continue;
    }
    std::optional<uint64_t> Size = frameObjectSize(AI, DL);
    if (!Size)
      continue;
    Align A =
        std::max(AI->getAlign(), DL.getPrefTypeAlign(AI->getAllocatedType()));
    Slots.push_back({AI, std::max<uint64_t>(*Size, 1), A});
  }
  for (Argument &Arg : F.args()) {
    Type *Ty = Arg.getParamByValType();
    if (!Ty || Arg.use_empty())
      continue;
    SmallVector<AnyMemIntrinsic *, 4> MemOps;
    if (onlyInFrame(&Arg, DL, MemOps)) {
      InlineCopies.append(MemOps.begin(), MemOps.end());
      continue;
    }
    Align A = std::max(Arg.getParamAlign().valueOrOne(),
                       DL.getPrefTypeAlign(Ty));
    Slots.push_back(
        {&Arg, std::max<uint64_t>(DL.getTypeAllocSize(Ty).getFixedValue(), 1),
         A});
  }
  // A copy between two staying locals is listed twice; one moving later
  // (a byval argument) only had its copy expanded.
  expandInline(InlineCopies);
  if (Slots.empty() && Dynamic.empty())
    return !InlineCopies.empty();

  LLVMContext &Ctx = F.getContext();
  BasicBlock &Entry = F.getEntryBlock();
  BasicBlock::iterator At = Entry.getFirstInsertionPt();
  while (isa<AllocaInst>(*At))
    ++At;
  IRBuilder<> B(&Entry, At);
  if (DISubprogram *SP = F.getSubprogram())
    B.SetCurrentDebugLocation(DILocation::get(Ctx, SP->getScopeLine(), 0, SP));
  Value *Delta = emitDelta(B);

  if (!Slots.empty()) {
    uint64_t Size = layOutFrame(Slots);
    Align FrameAlign = std::max(Slots.front().Alignment, Align(16));
    AllocaInst *Pad;
    {
      IRBuilder<> Top(&Entry, Entry.begin());
      Pad = Top.CreateAlloca(ArrayType::get(Top.getInt8Ty(), Size), nullptr,
                             "dipc.data");
      Pad->setAlignment(FrameAlign);
    }
    Value *Frame = emitMirror(B, Pad, FrameAlign, Delta, "dipc.data.frame");
    SmallVector<Instruction *, 8> Dead; // markers of a moved alloca
    for (FrameSlot &S : Slots) {
      Value *Addr = B.CreateConstInBoundsGEP1_64(
          B.getInt8Ty(), Frame, S.Offset, S.V->getName() + ".data");
      if (auto *Arg = dyn_cast<Argument>(S.V)) {
        // The ABI's copy, read with a check: the caller filled it only if
        // it called with this signature (a call through a pointer of
        // another type leaves whatever lies above the return address: a
        // read past the callee stack's top faults). Reads of the domain's
        // own callee stack are allowed (rt/sfi.c, own_stack_allows).
        Arg->replaceAllUsesWith(Addr);
        B.CreateMemCpy(Addr, S.Alignment, Arg,
                       Arg->getParamAlign().valueOrOne(), S.Size);
        continue;
      }
      auto *AI = cast<AllocaInst>(S.V);
      for (User *U : AI->users())
        if (auto *II = dyn_cast<IntrinsicInst>(U);
            II && II->isLifetimeStartOrEnd())
          Dead.push_back(II);
      AI->replaceAllUsesWith(Addr);
    }
    for (Instruction *I : Dead)
      I->eraseFromParent();
    for (FrameSlot &S : Slots)
      if (auto *AI = dyn_cast<AllocaInst>(S.V))
        AI->eraseFromParent();
  }

  // A variable-sized local: its alloca takes the stack (checked as a move,
  // SfiChecks.cpp), its mirror holds it.
  auto *DeltaDef = cast<Instruction>(Delta);
  for (AllocaInst *AI : Dynamic) {
    Instruction *Pos = AI->getNextNode();
    if (AI->getParent() == &Entry && AI->comesBefore(DeltaDef))
      Pos = DeltaDef->getNextNode();
    IRBuilder<> After(Pos);
    SmallVector<Use *, 8> Uses;
    for (Use &U : AI->uses())
      if (auto *II = dyn_cast<IntrinsicInst>(U.getUser());
          !II || !II->isLifetimeStartOrEnd())
        Uses.push_back(&U);
    Value *Mirror =
        emitMirror(After, AI, AI->getAlign(), Delta, AI->getName() + ".data");
    for (Use *U : Uses)
      U->set(Mirror);
  }
  return true;
}

} // namespace dipc
