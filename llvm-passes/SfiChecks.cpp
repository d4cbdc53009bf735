// SfiChecks.cpp - CODOMs' access checks in software (-fdipc-sfi): every
// memory access of every defined function is preceded by the check of
// include/dipc/sfi.h against the rights of the domain the thread runs as.
//
//   opt -load-pass-plugin=DipcPass.so -passes=dipc-sfi in.ll
//
// Runs last (after dipc-frame and dipc-unsafe-stack), so it sees the final
// IR: only code generation follows, and nothing there adds an access the
// IR does not show (byval copies are checked at the call; calls are marked
// nobuiltin so that memcmp is not expanded into loads).
//
// The fast path, inline (docs/compiler.md, "SFI checks"):
//
//   row    = RIGHTS + %gs:CUR_DOM * TAGS     once, in the entry block
//   tag    = SHADOW[addr >> 12]              u16
//   denied = (row[tag] & RIGHT) == 0 || crosses a page
//   if (denied) __dipc_sfi_check(addr, size, write)     cold, returns if ok
//
// where "crosses a page" is addr & (size - 1) for an access the IR says is
// naturally aligned, (addr & 4095) > 4096 - size otherwise, and left out
// when the alignment of a local or global rules it out.
//
// Not checked: accesses that stay inside a static alloca of the function
// (its own frame) and the check's own loads (!dipc.sfi.check).
// Cheaper: a check whose address is loop invariant and that runs whenever
// the loop is entered moves to the preheader; accesses of one block at
// constant offsets from one base, within 4096 bytes, share one check of
// the whole range at the first of them (the write right covers the read,
// as under mpk, where PKRU cannot grant write without read); a check that
// dominates an access to bytes it covered, with no call between, covers it;
// one that dominates two or more later accesses of the same base, with no
// call between, tests their whole range inline (never faulting on it) and they
// make their own check only when that test fails (see Check). A run-time
// length takes the fast path when it stays in one page.
//
// Refused (compile errors): top-level asm, ifuncs and inline asm other
// than the passes' own and empty compiler barriers (their accesses cannot
// be seen),
// accesses through another address space (__seg_gs, __seg_fs), and
// intrinsics that access memory in ways not described here.
#include "SfiChecks.h"
#include "Diagnostics.h"
#include "FrameLayout.h"
#include "ObjectNote.h"
#include "OwnAsm.h"
#include "SfiDataFrame.h"
#include "dipc/abi.h"
#include "dipc/sfi.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MustExecute.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace dipc {

// Marks an instrumented function: a second run leaves it alone.
static constexpr StringLiteral DoneAttr = "dipc-sfi";
static constexpr uint64_t PageSize = 1ull << DIPC_SFI_PAGE_SHIFT;
static constexpr unsigned X86GSAddressSpace = 256;
// A move of the stack pointer (addStackMove): the write right inline, the
// slow path told DIPC_SFI_STACK_MOVE. A call's pointer argument
// (addCallArguments): the read right inline, the slow path told
// DIPC_SFI_CALL_ARG.
static constexpr unsigned StackMoveRight = DIPC_SFI_WRITE | 0x80;
static constexpr unsigned CallArgRight = DIPC_SFI_READ | 0x40;
// __builtin_setjmp's buffer: five words.
static constexpr uint64_t SjLjBufferSize = 40;

namespace {

// `Size` bytes at `Ptr` (Size 0: `Len` bytes, known at run time), checked
// before `At`.
struct Access {
  Instruction *At;
  Value *Ptr;
  uint64_t Size;
  Value *Len;
  unsigned Right; // DIPC_SFI_READ or DIPC_SFI_WRITE
  uint64_t Align; // as the IR says: trusted for speed only (below)
};

// One emitted check: [Base + Lo, Base + Lo + Size) before `At`.
//
// A root check (Guard < 0) with guarded checks also tests, inline only,
// the wider range [Base + WLo, Base + WHi) that covers its own bytes and
// those of the later accesses it guards (same base, dominated by it, no
// call between): `Ok` says all of it lies in one page the running domain
// may access with WRight. A guarded check (Guard >= 0) then costs one
// test of its root's `Ok`, and is made in full only when that is false
// (the wider range crossed a page, or reached one the domain may not
// access: the accesses may never have touched those bytes, so nothing
// faults on them).
struct Check {
  Instruction *At;
  Value *Base;
  int64_t Lo;
  uint64_t Size;
  unsigned Right;
  uint64_t Align;
  int Guard = -1;
  int64_t WLo = 0, WHi = 0; // the wider range of a root with guarded checks
  unsigned WRight = 0;      // 0: guards nothing
  Value *Ok = nullptr;      // emitted: the wider range's test
};

class Instrumenter {
public:
  Instrumenter(Function &F, DominatorTree &DT, LoopInfo &LI,
               const TargetLibraryInfo &TLI, StringSet<> &TagOnlyCallees)
      : F(F), M(*F.getParent()), DL(M.getDataLayout()), Ctx(F.getContext()),
        DT(DT), LI(LI), TLI(TLI), TagOnlyCallees(TagOnlyCallees) {}
  bool collect();
  void plan();
  void emit();
  void finish();

private:
  Function &F;
  Module &M;
  const DataLayout &DL;
  LLVMContext &Ctx;
  DominatorTree &DT;
  LoopInfo &LI;
  const TargetLibraryInfo &TLI;
  StringSet<> &TagOnlyCallees; // the calls note's (dipc/sfi.h)
  SmallVector<Access, 32> Accesses;
  SmallVector<Access, 4> RunTime;           // run-time length
  SmallVector<std::pair<Instruction *, Value *>, 4> OffStack; // call args
  SmallVector<IntrinsicInst *, 2> Masked;   // masked vector accesses
  SmallVector<Check, 32> Checks;
  DenseMap<const Value *, SmallVector<size_t, 4>> ByBase; // Checks per base
  DenseMap<const BasicBlock *, bool> CallIn;              // has a call
  Value *Row = nullptr;

  bool refuse(const Instruction &I, const Twine &Why);
  bool addAccess(Instruction &I, Value *Ptr, uint64_t Size, unsigned Right,
                 Align A = Align(1));
  bool addRange(Instruction &I, Value *Ptr, Value *Len, unsigned Right);
  bool addStackMove(Instruction &I, Value *Lo, Value *Len);
  bool addDynamicAlloca(AllocaInst &AI);
  bool addCallArguments(CallBase &CB);
  void emitOffStack(Instruction *At, Value *Ptr);
  bool visitIntrinsic(IntrinsicInst &II);
  bool allowedAddressSpace(const Instruction &I, const Value *Ptr);
  bool inFrame(const Access &A) const;
  Instruction *hoistPoint(const Access &A,
                          DenseMap<const Loop *, SimpleLoopSafetyInfo> &Safety);
  bool mayCross(const Value *Base, int64_t Lo, uint64_t Size) const;
  bool noCallBetween(Instruction *X, Instruction *A);
  bool covered(const Access &A, const Value *Base, int64_t Lo);
  int guardFor(const Access &A, const Value *Base, int64_t Lo);
  Value *row();
  FunctionCallee slowPath();
  void emitCheck(Check &C);
  void emitFast(Instruction *At, Value *Addr, Value *Len, uint64_t Size,
                unsigned Right, bool MayCross, bool Aligned);
  Value *emitWide(IRBuilder<> &B, const Check &C);
  void emitSlowCall(IRBuilder<> &B, Value *Addr, Value *Len, unsigned Right,
                    bool Cold);
  void emitMasked(IntrinsicInst &II);
};

} // namespace

bool Instrumenter::refuse(const Instruction &I, const Twine &Why) {
  reportError(F, "-fdipc-sfi cannot check '" + F.getName() + "': " + Why,
              I.getDebugLoc());
  return false;
}

// Another address space is a segment (x86: 256 gs, 257 fs): the check
// cannot compute the linear address. No exception: the caller stubs'
// store of dipc_errno to the thread's public page, the one there was,
// went (the proxy clears it), and an exception for that page let a
// 128-byte access at its end rewrite the next thread's running domain
// (e2e/attack-sfi-gs-public-page-overflow.c).
bool Instrumenter::allowedAddressSpace(const Instruction &I,
                                       const Value *Ptr) {
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  if (AS == 0)
    return true;
  return refuse(I, "it accesses memory through address space " + Twine(AS) +
                       " (a __seg_gs or __seg_fs pointer), whose linear "
                       "address the check cannot compute");
}

bool Instrumenter::addAccess(Instruction &I, Value *Ptr, uint64_t Size,
                             unsigned Right, Align A) {
  if (!allowedAddressSpace(I, Ptr))
    return false;
  if (Size == 0)
    return true;
  Accesses.push_back({&I, Ptr, Size, nullptr, Right, A.value()});
  return true;
}

// The shadow's tag of the page at index Page (the checks' own load).
static LoadInst *loadTag(IRBuilder<> &B, Value *Page, const Twine &Name) {
  auto *Shadow = ConstantExpr::getIntToPtr(
      ConstantInt::get(B.getInt64Ty(), DIPC_SFI_SHADOW_ADDR), B.getPtrTy());
  LoadInst *Tag = B.CreateAlignedLoad(
      B.getInt16Ty(), B.CreateGEP(B.getInt16Ty(), Shadow, Page), Align(2),
      Name);
  Tag->setMetadata(SfiOwnAccessMD, MDNode::get(B.getContext(), {}));
  return Tag;
}

// Whether Ptr lies inside a global variable defined here, at a constant
// offset.
static bool insideGlobal(Value *Ptr, const DataLayout &DL) {
  auto [Base, Off] = baseAndOffset(Ptr, DL);
  const auto *GV = dyn_cast<GlobalVariable>(Base);
  return GV && !GV->isDeclaration() && Off >= 0 &&
         uint64_t(Off) <= DL.getTypeAllocSize(GV->getValueType());
}

static cl::opt<bool> SfiCallArguments(
    "dipc-sfi-call-arguments", cl::init(true), cl::Hidden,
    cl::desc("Check the pointer arguments of calls to functions the unit "
             "does not define (off: only for tests of the loader's "
             "interceptors, which then see every pointer)"));

// A function this unit does not define (the C library, another library,
// another unit) reads and writes through its pointer arguments as it will:
// the loader intercepts some C library functions (checking the whole
// ranges), not all, and uninstrumented code checks nothing.
//
// A C library function's pointer must at least point where the running
// domain may read (write, where the parameter is writeonly): so no call
// names memory the domain may not read, the runtime's above all (the
// rights matrix, the tag shadow, the thread states), as modf(x, p) over
// the domain's own rights row would. Variadic arguments are values to
// print or scan, whose formats the interceptors check; functions are code.
//
// No pointer given to any function the unit does not define may point
// into a callee stack, the thread's own included: its frames' return
// addresses and saved registers are what no checked write may reach, and
// libc writes unchecked (wmemcpy, which LLVM does not know as the C
// library's, over a saved register read another domain's secret). Other
// functions' pointers need not name memory at all (SQLite's
// SQLITE_TRANSIENT is -1): only their tag is tested, where they have one.
//
// Every function the unit calls and does not define goes into its calls
// note but a C library function declared as the library does that takes
// no pointer: the first byte says nothing of what lies past it (modf over
// the last byte of the domain's page wrote 7 bytes into the next), and
// another function's parameters may lie (a declaration of the program's
// choosing can hide a pointer in an integer, or leave one in an argument
// register it does not name: int getloadavg(void) called with rdi and esi
// still set), and a call can even differ from its callee's type (a cast of
// the function). The loader refuses, under sfi, those that libc, libm,
// ld.so or libgcc_s define and nothing checks.
bool Instrumenter::addCallArguments(CallBase &CB) {
  const auto *Named =
      dyn_cast<Function>(CB.getCalledOperand()->stripPointerCasts());
  if (!Named || !Named->isDeclaration() || Named->isIntrinsic() ||
      !SfiCallArguments)
    return true;
  LibFunc LF;
  const Function *Callee = CB.getCalledFunction();
  bool Known = Callee && TLI.getLibFunc(*Callee, LF) && TLI.has(LF);
  if (!Known || any_of(Callee->getFunctionType()->params(),
                       [](const Type *T) { return T->isPointerTy(); }))
    TagOnlyCallees.insert(Named->getName().ltrim('\1'));
  if (!Callee)
    return true; // called unlike declared: its parameters say nothing
  // A C library function declared unlike the library (a pointer parameter
  // as an integer) would escape the check of its arguments: refused, not
  // left unchecked.
  if (TLI.getLibFunc(Callee->getName(), LF) && TLI.has(LF) && !Known)
    return refuse(CB, "it calls the C library's '" + Callee->getName() +
                          "' through a declaration unlike the library's, "
                          "whose pointer arguments the check could not tell "
                          "(declare it as its header does)");
  unsigned Fixed = Callee->getFunctionType()->getNumParams();
  for (unsigned Arg = 0; Arg < CB.arg_size() && Arg < Fixed; ++Arg) {
    Value *P = CB.getArgOperand(Arg);
    if (!P->getType()->isPointerTy() || CB.isByValArgument(Arg) ||
        P->getType()->getPointerAddressSpace() != 0 ||
        isa<ConstantPointerNull>(P) || isa<UndefValue>(P) ||
        isa<Function>(P->stripPointerCasts()))
      continue;
    if (!Known) {
      // The exception a landing pad resumes is the unwinder's; a global
      // at a constant offset inside it is on no stack.
      auto *EV = dyn_cast<ExtractValueInst>(P);
      if (!(EV && isa<LandingPadInst>(EV->getAggregateOperand())) &&
          !insideGlobal(P, DL))
        OffStack.push_back({&CB, P});
      continue;
    }
    unsigned Right = CB.paramHasAttr(Arg, Attribute::WriteOnly)
                         ? DIPC_SFI_WRITE
                         : CallArgRight;
    // A null pointer names no memory (free(NULL), time(NULL)): the check
    // is then of the runtime vector's page, which every domain may use.
    IRBuilder<> B(&CB);
    Value *Shared = ConstantExpr::getIntToPtr(
        B.getInt64(DIPC_VECTOR_ADDR), P->getType());
    Value *Checked = B.CreateSelect(B.CreateIsNull(P), Shared, P,
                                    "dipc.sfi.libarg");
    // Never merged with the accesses' checks: its own slow-path kind.
    RunTime.push_back({&CB, Checked, 0, B.getInt64(1), Right, 1});
  }
  return true;
}

// Before the call At: if Ptr lies in the user half on a page tagged
// DIPC_SFI_TAG_STACK, the slow path for DIPC_SFI_CALL_ARG (which refuses
// it); any other value passes.
void Instrumenter::emitOffStack(Instruction *At, Value *Ptr) {
  IRBuilder<> B(At);
  Type *I64 = B.getInt64Ty();
  Value *Addr = B.CreatePtrToInt(Ptr, I64, "dipc.sfi.arg");
  Value *User = B.CreateICmpULT(Addr, B.getInt64(1ull << 47));
  Value *Page = B.CreateSelect(User, B.CreateLShr(Addr, DIPC_SFI_PAGE_SHIFT),
                               B.getInt64(0));
  LoadInst *Tag = loadTag(B, Page, "dipc.sfi.argtag");
  Value *OnStack = B.CreateICmpEQ(Tag, B.getInt16(DIPC_SFI_TAG_STACK),
                                  "dipc.sfi.onstack");
  Instruction *Slow =
      SplitBlockAndInsertIfThen(OnStack, At, /*Unreachable=*/false,
                                MDBuilder(Ctx).createUnlikelyBranchWeights());
  Slow->getParent()->setName("dipc.sfi.slow");
  B.SetInsertPoint(Slow);
  emitSlowCall(B, Addr, B.getInt64(1), CallArgRight, /*Cold=*/true);
}

bool Instrumenter::addRange(Instruction &I, Value *Ptr, Value *Len,
                            unsigned Right) {
  if (auto *C = dyn_cast<ConstantInt>(Len))
    return addAccess(I, Ptr, C->getZExtValue(), Right);
  if (!allowedAddressSpace(I, Ptr))
    return false;
  RunTime.push_back({&I, Ptr, 0, Len, Right, 1});
  return true;
}

bool Instrumenter::visitIntrinsic(IntrinsicInst &II) {
  if (auto *MI = dyn_cast<AnyMemIntrinsic>(&II)) {
    if (!addRange(II, MI->getRawDest(), MI->getLength(), DIPC_SFI_WRITE))
      return false;
    if (auto *MT = dyn_cast<AnyMemTransferInst>(MI))
      return addRange(II, MT->getRawSource(), MT->getLength(), DIPC_SFI_READ);
    return true;
  }
  switch (II.getIntrinsicID()) {
  case Intrinsic::masked_load:
  case Intrinsic::masked_store:
  case Intrinsic::masked_gather:
  case Intrinsic::masked_scatter:
  case Intrinsic::masked_expandload:
  case Intrinsic::masked_compressstore: {
    bool Store = II.getIntrinsicID() == Intrinsic::masked_store ||
                 II.getIntrinsicID() == Intrinsic::masked_scatter ||
                 II.getIntrinsicID() == Intrinsic::masked_compressstore;
    Value *Ptr = II.getArgOperand(Store ? 1 : 0);
    if (Ptr->getType()->getScalarType()->getPointerAddressSpace() != 0)
      return refuse(II, "a masked vector access through address space " +
                            Twine(Ptr->getType()
                                      ->getScalarType()
                                      ->getPointerAddressSpace()));
    if (isa<ScalableVectorType>(Store ? II.getArgOperand(0)->getType()
                                      : II.getType()))
      return refuse(II, "a scalable vector access");
    Masked.push_back(&II);
    return true;
  }
  case Intrinsic::vastart:
    return addAccess(II, II.getArgOperand(0), VaListSize, DIPC_SFI_WRITE);
  case Intrinsic::vacopy:
    return addAccess(II, II.getArgOperand(0), VaListSize, DIPC_SFI_WRITE) &&
           addAccess(II, II.getArgOperand(1), VaListSize, DIPC_SFI_READ);
  case Intrinsic::eh_sjlj_setjmp:
    return addAccess(II, II.getArgOperand(0), SjLjBufferSize, DIPC_SFI_WRITE);
  case Intrinsic::eh_sjlj_longjmp:
    // Resumes the stack pointer and address its buffer holds, whatever
    // they are: a forged one ran libc's strcpy on the secret.
    return refuse(II, "it calls __builtin_longjmp, which resumes whatever "
                      "context its buffer holds (longjmp resumes only one "
                      "this thread saved)");
  case Intrinsic::stackrestore: {
    // Gives back what variable-sized locals took: up to the saved value,
    // which must lie above (a spilled one could have been rewritten).
    IRBuilder<> B(&II);
    Value *SP = B.CreatePtrToInt(B.CreateStackSave(), B.getInt64Ty());
    Value *To = B.CreatePtrToInt(II.getArgOperand(0), B.getInt64Ty());
    return addStackMove(II, SP, B.CreateSub(To, SP));
  }
  // No access that could fault: markers, hints, the stack pointer.
  case Intrinsic::vaend:
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::invariant_start:
  case Intrinsic::invariant_end:
  case Intrinsic::prefetch:
  case Intrinsic::stacksave:
  case Intrinsic::var_annotation:
  case Intrinsic::ptr_annotation:
  case Intrinsic::annotation:
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::assume:
  case Intrinsic::sideeffect:
  case Intrinsic::donothing:
  case Intrinsic::trap:
  case Intrinsic::debugtrap:
  case Intrinsic::ubsantrap:
  case Intrinsic::pseudoprobe:
  case Intrinsic::eh_sjlj_functioncontext:
  case Intrinsic::eh_sjlj_callsite:
  case Intrinsic::eh_sjlj_lsda:
  case Intrinsic::eh_typeid_for:
  case Intrinsic::eh_sjlj_setup_dispatch:
    return true;
  default:
    if (II.doesNotAccessMemory() || II.onlyAccessesInaccessibleMemory())
      return true;
    return refuse(II, "intrinsic '" + II.getCalledFunction()->getName() +
                          "' accesses memory in a way the checks do not "
                          "describe");
  }
}

// An asm of no instructions (a compiler barrier) accesses nothing.
static bool isBlankAsm(const CallBase &CB) {
  return StringRef(cast<InlineAsm>(CB.getCalledOperand())->getAsmString())
      .trim()
      .empty();
}

// Gathers the accesses of F, or reports why F cannot be checked.
// Stack a move of the stack pointer takes or gives back: [Lo, + Len), which
// the running domain must be able to write, or which must lie in its own
// call's part of its callee stack (DIPC_SFI_STACK_MOVE, dipc/sfi.h; no
// plain write is allowed there), checked before the move. A variable-
// sized local moves it by a size of the program's choosing: a "negative"
// one raised it over the callers' frames and into another domain's memory,
// where the function's unchecked frame accesses and its callees' pushes
// then went.
bool Instrumenter::addStackMove(Instruction &I, Value *Lo, Value *Len) {
  IRBuilder<> B(&I);
  RunTime.push_back({&I, B.CreateIntToPtr(Lo, B.getPtrTy()), 0, Len,
                     StackMoveRight, 1});
  return true;
}

// At most this much stack for one variable-sized local; more (or a size
// that overflows) is checked as a range no domain may write.
static constexpr uint64_t MaxDynamicAlloca = 1ull << 28;

bool Instrumenter::addDynamicAlloca(AllocaInst &AI) {
  IRBuilder<> B(&AI);
  Type *I64 = B.getInt64Ty();
  uint64_t Elt = DL.getTypeAllocSize(AI.getAllocatedType()).getFixedValue();
  Value *Mul = B.CreateBinaryIntrinsic(
      Intrinsic::umul_with_overflow,
      B.CreateZExtOrTrunc(AI.getArraySize(), I64), B.getInt64(Elt));
  Value *Bytes = B.CreateExtractValue(Mul, 0);
  Value *TooBig =
      B.CreateOr(B.CreateExtractValue(Mul, 1),
                 B.CreateICmpUGT(Bytes, B.getInt64(MaxDynamicAlloca)));
  // The new stack pointer lies above SP - Bytes - alignment. Too much:
  // [SP, + 2^62), which runs past the user half (the inline test of its
  // first page must read a tag that exists).
  Value *Taken = B.CreateAdd(Bytes, B.getInt64(AI.getAlign().value() + 64));
  Value *SP = B.CreatePtrToInt(B.CreateStackSave(), I64);
  return addStackMove(AI, B.CreateSelect(TooBig, SP, B.CreateSub(SP, Taken)),
                      B.CreateSelect(TooBig, B.getInt64(1ull << 62), Taken));
}

bool Instrumenter::collect() {
  for (Instruction &I : instructions(F)) {
    if (I.getMetadata(SfiOwnAccessMD))
      continue;
    if (auto *AI = dyn_cast<AllocaInst>(&I); AI && !AI->isStaticAlloca()) {
      if (!addDynamicAlloca(*AI))
        return false;
    } else if (auto *LI = dyn_cast<LoadInst>(&I)) {
      if (!addAccess(I, LI->getPointerOperand(),
                     storeSize(DL, LI->getType()), DIPC_SFI_READ,
                     LI->getAlign()))
        return false;
    } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
      if (!addAccess(I, SI->getPointerOperand(),
                     storeSize(DL, SI->getValueOperand()->getType()),
                     DIPC_SFI_WRITE, SI->getAlign()))
        return false;
    } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      if (!addAccess(I, RMW->getPointerOperand(),
                     storeSize(DL, RMW->getValOperand()->getType()),
                     DIPC_SFI_WRITE, RMW->getAlign()))
        return false;
    } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
      if (!addAccess(I, CX->getPointerOperand(),
                     storeSize(DL, CX->getNewValOperand()->getType()),
                     DIPC_SFI_WRITE, CX->getAlign()))
        return false;
    } else if (auto *VA = dyn_cast<VAArgInst>(&I)) {
      // Reads and advances the va_list; what it reads is the frame's.
      if (!addAccess(I, VA->getPointerOperand(), VaListSize, DIPC_SFI_WRITE))
        return false;
    } else if (auto *CB = dyn_cast<CallBase>(&I)) {
      if (CB->isInlineAsm()) {
        if (!isOwnAsm(*CB) && !isBlankAsm(*CB))
          return refuse(I, "it contains inline assembly, whose memory "
                           "accesses cannot be checked");
        continue;
      }
      if (auto *II = dyn_cast<IntrinsicInst>(CB)) {
        if (!visitIntrinsic(*II))
          return false;
        continue;
      }
      // A byval argument is copied from memory by the call itself.
      for (unsigned Arg = 0; Arg < CB->arg_size(); ++Arg)
        if (Type *Ty = CB->getParamByValType(Arg))
          if (!addAccess(I, CB->getArgOperand(Arg),
                         DL.getTypeAllocSize(Ty).getFixedValue(),
                         DIPC_SFI_READ))
            return false;
      if (!addCallArguments(*CB))
        return false;
    }
  }
  return true;
}

// Whole access inside a static alloca of this function (its own frame,
// which only its own domain's code reaches, docs/compiler.md, "Stacks").
// A byval argument's uses are a data-frame copy's (SfiDataFrame.cpp).
bool Instrumenter::inFrame(const Access &A) const {
  return insideFrameObject(A.Ptr, A.Size, DL);
}

// The outermost preheader where the check of `A` can run instead: its
// address is invariant in the loop and the access runs whenever the loop
// is entered, so the check fails exactly when the first access would.
Instruction *
Instrumenter::hoistPoint(const Access &A,
                         DenseMap<const Loop *, SimpleLoopSafetyInfo> &Safety) {
  Instruction *Point = nullptr;
  for (Loop *L = LI.getLoopFor(A.At->getParent()); L; L = L->getParentLoop()) {
    BasicBlock *Pre = L->getLoopPreheader();
    if (!Pre || !L->isLoopInvariant(A.Ptr))
      break;
    auto [It, New] = Safety.try_emplace(L);
    if (New)
      It->second.computeLoopSafetyInfo(L);
    if (!It->second.isGuaranteedToExecute(*A.At, &DT, L))
      break;
    Point = Pre->getTerminator();
  }
  return Point;
}

// Whether [Base + Lo, + Size) may straddle a page: only the alignment of
// this function's allocas and this module's definitions is trusted (an
// argument's `align` or a load's !align is the caller's word).
bool Instrumenter::mayCross(const Value *Base, int64_t Lo,
                            uint64_t Size) const {
  uint64_t A = 1;
  if (const auto *AI = dyn_cast<AllocaInst>(Base))
    A = AI->getAlign().value();
  else if (const auto *GV = dyn_cast<GlobalVariable>(Base);
           GV && !GV->isDeclaration() && !GV->isInterposable())
    A = GV->getPointerAlignment(DL).value();
  else if (const auto *CB = dyn_cast<CallBase>(Base); CB && isOwnAsm(*CB))
    A = CB->getRetAlign().valueOrOne().value(); // a data frame's base
  A = std::min(A, PageSize);
  uint64_t Start = uint64_t(Lo) & (A - 1);
  return Start + Size > A;
}

// A real call (not an intrinsic): it may change what the tags say, by
// unmapping a page another domain then maps. The running domain is the
// same after it, so only calls end what a check covers.
static bool isCall(const Instruction &I) {
  return isa<CallBase>(I) && !isa<IntrinsicInst>(I);
}

// No call on any path from X (the check's place, dominating A) to A.
bool Instrumenter::noCallBetween(Instruction *X, Instruction *A) {
  auto Clean = [](BasicBlock::iterator I, BasicBlock::iterator E) {
    return std::none_of(I, E, [](Instruction &J) { return isCall(J); });
  };
  BasicBlock *BX = X->getParent(), *BA = A->getParent();
  if (BX == BA)
    return Clean(X->getIterator(), A->getIterator());
  if (!Clean(BA->begin(), A->getIterator()))
    return false;
  // Backwards from A's block: every path stops at X's block (it dominates),
  // where only the part from X on counts (a path through X again is
  // checked again).
  SmallVector<BasicBlock *, 8> Work(predecessors(BA));
  SmallPtrSet<BasicBlock *, 16> Seen;
  while (!Work.empty()) {
    BasicBlock *B = Work.pop_back_val();
    if (!Seen.insert(B).second)
      continue;
    if (Seen.size() > 32)
      return false; // not worth it
    if (B == BX) {
      if (!Clean(X->getIterator(), BX->end()))
        return false;
      continue;
    }
    auto [It, New] = CallIn.try_emplace(B);
    if (New)
      It->second = !Clean(B->begin(), B->end());
    if (It->second)
      return false;
    Work.append(pred_begin(B), pred_end(B));
  }
  return true;
}

// Whether a planned check that dominates A already checked A's bytes with
// the right A needs (or the write right), with no call since.
bool Instrumenter::covered(const Access &A, const Value *Base, int64_t Lo) {
  auto It = ByBase.find(Base);
  if (It == ByBase.end())
    return false;
  for (size_t I : It->second) {
    const Check &C = Checks[I];
    if (C.Lo <= Lo && Lo + int64_t(A.Size) <= C.Lo + int64_t(C.Size) &&
        (C.Right & DIPC_SFI_WRITE || A.Right == DIPC_SFI_READ) &&
        C.At != A.At && DT.dominates(C.At, A.At) && noCallBetween(C.At, A.At))
      return true;
  }
  return false;
}

// The wider ranges guarded checks share stay within this many bytes: the
// larger the range, the likelier it crosses a page and its test fails.
static constexpr int64_t WideLimit = 1024;

// A root check that can guard A's (see Check): same base, dominating A,
// with no call between, its wider range still within WideLimit bytes once
// A's are in. -1 if none.
int Instrumenter::guardFor(const Access &A, const Value *Base, int64_t Lo) {
  auto It = ByBase.find(Base);
  if (It == ByBase.end())
    return -1;
  for (size_t I : It->second) {
    const Check &C = Checks[I];
    if (C.Guard >= 0 || C.Size >= PageSize || C.At == A.At)
      continue;
    int64_t WLo = std::min(C.WRight ? C.WLo : C.Lo, Lo);
    int64_t WHi = std::max<int64_t>(C.WRight ? C.WHi : C.Lo + C.Size,
                                    Lo + int64_t(A.Size));
    if (WHi - WLo > WideLimit || !DT.dominates(C.At, A.At) ||
        !noCallBetween(C.At, A.At))
      continue;
    return int(I);
  }
  return -1;
}

// Measurement: one check per access (in-frame ones excepted).
static cl::opt<bool> SfiOptimize(
    "dipc-sfi-optimize", cl::init(true), cl::Hidden,
    cl::desc("Merge, hoist and reuse the SFI checks"));

void Instrumenter::plan() {
  if (!SfiOptimize) {
    for (const Access &A : Accesses)
      if (!inFrame(A))
        Checks.push_back({A.At, A.Ptr, 0, A.Size, A.Right, A.Align});
    return;
  }
  DenseMap<const Loop *, SimpleLoopSafetyInfo> Safety;
  // Hoisted checks, one per (preheader, address, size): the strongest right.
  DenseMap<std::tuple<Instruction *, Value *, uint64_t>, size_t> Hoisted;
  // Per block: open merge groups by base; closed by anything that may not
  // reach the next instruction (the later accesses might not run).
  DenseMap<std::pair<BasicBlock *, const Value *>, size_t> Open;
  BasicBlock *OpenBB = nullptr;
  Instruction *Last = nullptr;

  for (const Access &A : Accesses) {
    if (inFrame(A))
      continue;
    auto [Base, Lo] = baseAndOffset(A.Ptr, DL);
    if (Instruction *Pre = hoistPoint(A, Safety)) {
      auto [It, New] = Hoisted.try_emplace({Pre, A.Ptr, A.Size}, Checks.size());
      if (New)
        Checks.push_back({Pre, A.Ptr, 0, A.Size, A.Right, A.Align});
      else
        Checks[It->second].Right |= A.Right;
      continue;
    }
    if (covered(A, Base, Lo))
      continue;
    // Accesses come in instruction order: close the groups of the previous
    // block, and of this one when something between may not return.
    BasicBlock *BB = A.At->getParent();
    if (BB != OpenBB) {
      Open.clear();
      OpenBB = BB;
      Last = nullptr;
    } else if (Last && Last != A.At) {
      for (auto I = Last->getIterator(); &*I != A.At; ++I)
        if (!isGuaranteedToTransferExecutionToSuccessor(&*I)) {
          Open.clear();
          break;
        }
    }
    Last = A.At;
    if (A.Size < PageSize) {
      auto It = Open.find({BB, Base});
      if (It != Open.end()) {
        Check &C = Checks[It->second];
        int64_t NewLo = std::min(C.Lo, Lo);
        int64_t NewHi = std::max<int64_t>(C.Lo + C.Size, Lo + A.Size);
        // At most 4096 bytes: the range's first and last pages are the
        // only ones, and accesses touch both.
        if (uint64_t(NewHi - NewLo) <= PageSize) {
          C.Lo = NewLo;
          C.Size = NewHi - NewLo;
          C.Right |= A.Right;
          C.Align = 1; // a range: no alignment to speak of
          continue;
        }
      }
    }
    // A guarded check is no group's: a group's range may grow, its root's
    // wider range would have to follow.
    int Guard = A.Size < PageSize ? guardFor(A, Base, Lo) : -1;
    if (Guard >= 0) {
      Check &R = Checks[Guard];
      if (!R.WRight) {
        R.WLo = R.Lo;
        R.WHi = R.Lo + R.Size;
        R.WRight = R.Right;
      }
      R.WLo = std::min(R.WLo, Lo);
      R.WHi = std::max<int64_t>(R.WHi, Lo + A.Size);
      R.WRight |= A.Right;
    } else if (A.Size < PageSize) {
      Open[{BB, Base}] = Checks.size();
    }
    ByBase[Base].push_back(Checks.size());
    Checks.push_back({A.At, Base, Lo, A.Size, A.Right, A.Align, Guard});
  }
  // The wider test costs a little more than a plain check (the crossing
  // test): a root that guards one check only, often on a path that seldom
  // runs (zlib's longest_match), is not worth it. Both then check as usual.
  SmallVector<unsigned, 0> Guarded(Checks.size(), 0);
  for (const Check &C : Checks)
    if (C.Guard >= 0)
      ++Guarded[C.Guard];
  for (Check &C : Checks)
    if (C.Guard >= 0 && Guarded[C.Guard] < 2)
      C.Guard = -1;
  for (size_t I = 0; I < Checks.size(); ++I)
    if (Guarded[I] < 2)
      Checks[I].WRight = 0;
}

// The running domain's row of the rights matrix, once per function: the
// domain only changes in proxies, and a proxy that returns to this frame
// restores it. The gs load is not volatile: nothing may reorder it past a
// call anyway (it is loaded before any), and codegen may then fold it.
Value *Instrumenter::row() {
  if (Row)
    return Row;
  BasicBlock &Entry = F.getEntryBlock();
  BasicBlock::iterator At = Entry.getFirstInsertionPt();
  while (isa<AllocaInst>(*At))
    ++At;
  IRBuilder<> B(&Entry, At);
  Type *I64 = B.getInt64Ty();
  auto *CurDom = ConstantExpr::getIntToPtr(
      ConstantInt::get(I64, DIPC_SFI_CUR_DOM_GS_OFFSET),
      PointerType::get(Ctx, X86GSAddressSpace));
  LoadInst *Dom = B.CreateAlignedLoad(B.getInt32Ty(), CurDom, Align(4),
                                      "dipc.sfi.dom");
  Dom->setMetadata(SfiOwnAccessMD, MDNode::get(Ctx, {}));
  auto *Rights = ConstantExpr::getIntToPtr(
      ConstantInt::get(I64, DIPC_SFI_RIGHTS_ADDR), B.getPtrTy());
  Row = B.CreateGEP(B.getInt8Ty(), Rights,
                    B.CreateMul(B.CreateZExt(Dom, I64),
                                ConstantInt::get(I64, DIPC_SFI_TAGS), "",
                                /*HasNUW=*/true, /*HasNSW=*/true),
                    "dipc.sfi.row");
  return Row;
}

// The slow path through a preserve_most wrapper (hidden option, off: see
// docs/compiler.md, "SFI checks"): the wrapper saves the registers C code
// may clobber, so a function with checks keeps its values in registers
// across the cold call instead of saving them in its prologue. The
// contract's function stays a plain C function; its return address is
// then the wrapper's (the checked code's is one frame up).
static cl::opt<bool> SlowPathPreserveMost(
    "dipc-sfi-preserve-most", cl::init(false), cl::Hidden,
    cl::desc("Call __dipc_sfi_check through a preserve_most wrapper"));

static constexpr StringLiteral PreserveMostWrapper =
    DIPC_SFI_PRESERVE_MOST_WRAPPER;

static FunctionType *slowPathType(LLVMContext &Ctx) {
  return FunctionType::get(Type::getVoidTy(Ctx),
                           {Type::getInt64Ty(Ctx), Type::getInt64Ty(Ctx),
                            Type::getInt32Ty(Ctx)},
                           false);
}

// One per module (internal: no other unit's function of that name can
// stand in for it, dipc/sfi.h), naked: never instrumented. preserve_most
// keeps every general register but r11; the wrapper saves the other
// caller-saved ones (the vector registers are the caller's to save) and
// keeps the stack 16-aligned at the call (8 pushes + 8 bytes).
static Function *preserveMostWrapper(Module &M) {
  if (Function *W = M.getFunction(PreserveMostWrapper))
    return W;
  LLVMContext &Ctx = M.getContext();
  Function *W =
      Function::Create(slowPathType(Ctx), GlobalValue::InternalLinkage,
                       PreserveMostWrapper, M);
  W->setCallingConv(CallingConv::PreserveMost);
  W->addFnAttr(DIPC_SFI_OWN_FUNCTION_ATTR);
  W->addFnAttr(Attribute::Naked);
  W->addFnAttr(Attribute::NoInline);
  auto *BB = BasicBlock::Create(Ctx, "", W);
  std::string Text;
  raw_string_ostream OS(Text);
  static const char *const Saved[] = {"rax", "rcx", "rdx", "rsi",
                                      "rdi", "r8",  "r9",  "r10"};
  for (const char *R : Saved)
    OS << "pushq %" << R << "\n\t";
  OS << "subq $$8, %rsp\n\tcallq " << DIPC_SFI_CHECK_FN
     << "@PLT\n\taddq $$8, %rsp\n\t";
  for (const char *R : llvm::reverse(Saved))
    OS << "popq %" << R << "\n\t";
  OS << "retq";
  markOwnAsm(*CallInst::Create(
      InlineAsm::get(FunctionType::get(Type::getVoidTy(Ctx), false), Text, "",
                     /*hasSideEffects=*/true),
      {}, "", BB));
  new UnreachableInst(Ctx, BB);
  return W;
}

FunctionCallee Instrumenter::slowPath() {
  if (SlowPathPreserveMost)
    return preserveMostWrapper(M);
  return M.getOrInsertFunction(DIPC_SFI_CHECK_FN, slowPathType(Ctx));
}

void Instrumenter::emitSlowCall(IRBuilder<> &B, Value *Addr, Value *Len,
                                unsigned Right, bool Cold) {
  FunctionCallee Fn = slowPath();
  CallInst *Call = B.CreateCall(
      Fn, {Addr, B.CreateZExtOrTrunc(Len, B.getInt64Ty()),
           B.getInt32(Right == StackMoveRight   ? DIPC_SFI_STACK_MOVE
                      : Right == CallArgRight   ? DIPC_SFI_CALL_ARG
                      : Right == DIPC_SFI_WRITE ? 1
                                                : 0)});
  if (Cold)
    Call->addFnAttr(Attribute::Cold);
  if (auto *F = dyn_cast<Function>(Fn.getCallee()))
    Call->setCallingConv(F->getCallingConv());
}

// The fast path before `At`: [Addr, + Size) (Len null) or [Addr, + Len),
// by the page's tag and a crossing test, else the cold slow path.
void Instrumenter::emitFast(Instruction *At, Value *Addr, Value *Len,
                            uint64_t Size, unsigned Right, bool MayCross,
                            bool Aligned) {
  IRBuilder<> B(At);
  Type *I64 = B.getInt64Ty();
  MDNode *Mark = MDNode::get(Ctx, {});
  Value *Row = row();
  Value *Page = B.CreateLShr(Addr, DIPC_SFI_PAGE_SHIFT);
  LoadInst *Tag = loadTag(B, Page, "dipc.sfi.tag");
  LoadInst *Rights = B.CreateAlignedLoad(
      B.getInt8Ty(), B.CreateGEP(B.getInt8Ty(), Row, B.CreateZExt(Tag, I64)),
      Align(1), "dipc.sfi.rights");
  Rights->setMetadata(SfiOwnAccessMD, Mark);
  Value *Denied = B.CreateICmpEQ(
      B.CreateAnd(Rights, Right & (DIPC_SFI_READ | DIPC_SFI_WRITE)),
      B.getInt8(0),
                                 "dipc.sfi.denied");
  MDNode *Unlikely = MDBuilder(Ctx).createUnlikelyBranchWeights();
  Instruction *Slow =
      SplitBlockAndInsertIfThen(Denied, At, /*Unreachable=*/false, Unlikely);
  BasicBlock *SlowBB = Slow->getParent();
  SlowBB->setName("dipc.sfi.slow");
  if (MayCross) {
    // A second branch to the same slow path, its test in its own block so
    // that it folds into `test`. An access the IR says is naturally aligned
    // stays in its page when it is: test the low bits; one that is not
    // (undefined in C: an attacker's) takes the slow path, which checks it
    // whole. A run-time length must fit what is left of the page (compared
    // so that no length wraps the sum).
    BasicBlock *Tail = At->getParent();
    auto *Head =
        cast<BranchInst>(SlowBB->getSinglePredecessor()->getTerminator());
    auto *CrossBB = BasicBlock::Create(Ctx, "dipc.sfi.page", &F, Tail);
    Head->setSuccessor(1, CrossBB);
    B.SetInsertPoint(CrossBB);
    Value *Cross =
        Len ? B.CreateICmpUGT(
                  B.CreateZExtOrTrunc(Len, I64),
                  B.CreateSub(B.getInt64(PageSize),
                              B.CreateAnd(Addr, PageSize - 1)),
                  "dipc.sfi.cross")
        : Aligned
            ? B.CreateICmpNE(B.CreateAnd(Addr, Size - 1), B.getInt64(0),
                             "dipc.sfi.cross")
            : B.CreateICmpUGT(B.CreateAnd(Addr, PageSize - 1),
                              B.getInt64(PageSize - Size), "dipc.sfi.cross");
    B.CreateCondBr(Cross, SlowBB, Tail, Unlikely);
    SlowBB->moveAfter(CrossBB); // reads in order
  }
  B.SetInsertPoint(Slow);
  emitSlowCall(B, Addr, Len ? Len : B.getInt64(Size), Right, /*Cold=*/true);
}

// A root's wider range (see Check), tested inline only: true when it lies
// in one page whose tag the running domain's row grants WRight. Nothing
// faults here: false only sends the accesses to their own checks.
Value *Instrumenter::emitWide(IRBuilder<> &B, const Check &C) {
  int64_t WLo = std::min(C.WLo, C.Lo);
  int64_t WHi = std::max<int64_t>(C.WHi, C.Lo + C.Size);
  uint64_t Span = uint64_t(WHi - WLo);
  if (Span > PageSize) // (a group grew after it took guarded checks)
    return B.getFalse();
  Type *I64 = B.getInt64Ty();
  unsigned Right =
      (C.WRight | C.Right) & DIPC_SFI_WRITE ? DIPC_SFI_WRITE : DIPC_SFI_READ;
  Value *Lo = B.CreatePtrToInt(C.Base, I64, "dipc.sfi.wide");
  if (WLo)
    Lo = B.CreateAdd(Lo, ConstantInt::get(I64, WLo));
  MDNode *Mark = MDNode::get(Ctx, {});
  LoadInst *Tag =
      loadTag(B, B.CreateLShr(Lo, DIPC_SFI_PAGE_SHIFT), "dipc.sfi.wide.tag");
  LoadInst *Rights = B.CreateAlignedLoad(
      B.getInt8Ty(),
      B.CreateGEP(B.getInt8Ty(), row(), B.CreateZExt(Tag, I64)), Align(1),
      "dipc.sfi.wide.rights");
  Rights->setMetadata(SfiOwnAccessMD, Mark);
  Value *Granted =
      B.CreateICmpNE(B.CreateAnd(Rights, Right), B.getInt8(0));
  Value *InPage = B.CreateICmpULE(B.CreateAnd(Lo, PageSize - 1),
                                  B.getInt64(PageSize - Span));
  return B.CreateAnd(Granted, InPage, "dipc.sfi.ok");
}

void Instrumenter::emitCheck(Check &C) {
  IRBuilder<> B(C.At);
  Type *I64 = B.getInt64Ty();
  // The write right covers the read (see the top of the file).
  unsigned Right = C.Right & DIPC_SFI_WRITE ? DIPC_SFI_WRITE : DIPC_SFI_READ;
  Value *Addr = B.CreatePtrToInt(C.Base, I64, "dipc.sfi.addr");
  if (C.Lo)
    Addr = B.CreateAdd(Addr, ConstantInt::get(I64, C.Lo));
  if (C.Size >= PageSize) {
    emitSlowCall(B, Addr, B.getInt64(C.Size), Right, /*Cold=*/false);
    return;
  }
  // A root with guarded checks, or a guarded check: the check proper only
  // when the root's wider range did not pass.
  Instruction *At = C.At;
  Value *Ok = nullptr;
  if (C.Guard >= 0)
    Ok = Checks[C.Guard].Ok;
  else if (C.WRight)
    Ok = C.Ok = emitWide(B, C);
  if (Ok) {
    At = SplitBlockAndInsertIfThen(
        B.CreateNot(Ok, "dipc.sfi.notok"), C.At, /*Unreachable=*/false,
        MDBuilder(Ctx).createUnlikelyBranchWeights());
    At->getParent()->setName("dipc.sfi.full");
  }
  // (A constant address, such as the runtime vector's, is known.)
  bool MayCross = mayCross(C.Base, C.Lo, C.Size);
  if (auto *CA = dyn_cast<ConstantInt>(Addr))
    MayCross = (CA->getZExtValue() & (PageSize - 1)) + C.Size > PageSize;
  emitFast(At, Addr, nullptr, C.Size, Right, MayCross,
           isPowerOf2_64(C.Size) && C.Align >= C.Size);
}

// Masked vector accesses, through the slow path (rare in C: the vectoriser
// emits them only for targets with masked moves). Exactly the active lanes
// are checked: lanes of a contiguous access lie between the first and last
// active lane (at most 64 bytes, so two pages, both touched); a gather or
// scatter checks each lane, with length 0 when the lane is off.
void Instrumenter::emitMasked(IntrinsicInst &II) {
  IRBuilder<> B(&II);
  Type *I64 = B.getInt64Ty();
  Intrinsic::ID ID = II.getIntrinsicID();
  bool Store = ID == Intrinsic::masked_store ||
               ID == Intrinsic::masked_scatter ||
               ID == Intrinsic::masked_compressstore;
  auto *VecTy = cast<FixedVectorType>(Store ? II.getArgOperand(0)->getType()
                                            : II.getType());
  unsigned N = VecTy->getNumElements();
  uint64_t Elt = storeSize(DL, VecTy->getElementType());
  unsigned MaskArg = ID == Intrinsic::masked_load     ? 2
                     : ID == Intrinsic::masked_store  ? 3
                     : ID == Intrinsic::masked_gather ? 2
                     : ID == Intrinsic::masked_scatter ? 3
                                                       : (Store ? 2 : 1);
  Value *Mask = II.getArgOperand(MaskArg);
  Value *Ptr = II.getArgOperand(Store ? 1 : 0);
  unsigned Right = Store ? DIPC_SFI_WRITE : DIPC_SFI_READ;
  if (ID == Intrinsic::masked_gather || ID == Intrinsic::masked_scatter) {
    for (unsigned Lane = 0; Lane < N; ++Lane) {
      Value *On = B.CreateExtractElement(Mask, Lane);
      Value *P = B.CreateExtractElement(Ptr, Lane);
      emitSlowCall(B, B.CreatePtrToInt(P, I64),
                   B.CreateSelect(On, B.getInt64(Elt), B.getInt64(0)), Right,
                   /*Cold=*/false);
    }
    return;
  }
  Value *Bits = B.CreateBitCast(Mask, B.getIntNTy(N));
  Value *Addr = B.CreatePtrToInt(Ptr, I64);
  Value *Len;
  if (ID == Intrinsic::masked_expandload ||
      ID == Intrinsic::masked_compressstore) {
    Value *Lanes = B.CreateUnaryIntrinsic(Intrinsic::ctpop, Bits);
    Len = B.CreateMul(B.CreateZExt(Lanes, I64), B.getInt64(Elt));
  } else {
    Value *First = B.CreateZExt(
        B.CreateBinaryIntrinsic(Intrinsic::cttz, Bits, B.getFalse()), I64);
    Value *Lead = B.CreateZExt(
        B.CreateBinaryIntrinsic(Intrinsic::ctlz, Bits, B.getFalse()), I64);
    Value *Lanes = B.CreateSub(B.CreateSub(B.getInt64(N), Lead), First);
    Value *None = B.CreateICmpEQ(Bits, ConstantInt::get(Bits->getType(), 0));
    Len = B.CreateSelect(None, B.getInt64(0),
                         B.CreateMul(Lanes, B.getInt64(Elt)));
    Addr = B.CreateAdd(Addr, B.CreateMul(First, B.getInt64(Elt)));
  }
  emitSlowCall(B, Addr, Len, Right, /*Cold=*/false);
}

// For measurements only (docs/compiler.md, "Two designs measured"): what
// the access checks cost against the rest of -fdipc-sfi.
static cl::opt<bool> SfiAccessChecks(
    "dipc-sfi-access-checks", cl::init(true), cl::Hidden,
    cl::desc("Check loads, stores and ranges (off: only to measure what "
             "the rest of -fdipc-sfi costs; nothing is isolated)"));

void Instrumenter::emit() {
  if (!SfiAccessChecks)
    return;
  // Static allocas first: a split of the entry block must not leave one
  // behind the split, where it would become dynamic.
  BasicBlock &Entry = F.getEntryBlock();
  SmallVector<AllocaInst *, 8> Allocas;
  for (Instruction &I : Entry)
    if (auto *AI = dyn_cast<AllocaInst>(&I); AI && AI->isStaticAlloca())
      Allocas.push_back(AI);
  BasicBlock::iterator Top = Entry.getFirstInsertionPt();
  for (AllocaInst *AI : Allocas)
    AI->moveBefore(Entry, Top);

  for (const Access &A : RunTime) {
    IRBuilder<> B(A.At);
    emitFast(A.At, B.CreatePtrToInt(A.Ptr, B.getInt64Ty()), A.Len, 0, A.Right,
             /*MayCross=*/true, /*Aligned=*/false);
  }
  for (auto [At, Ptr] : OffStack)
    emitOffStack(At, Ptr);
  for (IntrinsicInst *II : Masked)
    emitMasked(*II);
  for (Check &C : Checks)
    emitCheck(C);
}

// A libc function called from this code sees a return address in it (the
// runtime's interceptors rely on it): no sibling calls. No call is expanded
// into accesses the IR did not show (memcmp into loads). And what the
// optimiser inferred of the function no longer holds once it reads the
// shadow and may stop in the slow path, or calls a function that does:
// under full LTO, callers are optimised again with these attributes.
static cl::opt<bool> SfiStackProbes(
    "dipc-sfi-stack-probes", cl::init(true), cl::Hidden,
    cl::desc("Touch every page of a large frame on the way down (off: only "
             "for tests of the other stack checks)"));

void Instrumenter::finish() {
  F.addFnAttr("disable-tail-calls", "true");
  // A frame larger than the guard below a callee stack would start on
  // whatever lies under it, where the function's own (unchecked) frame
  // accesses and its callees' pushes then go: the prologue touches every
  // page on the way down, so the guard faults first (as
  // -fstack-clash-protection does).
  if (SfiStackProbes)
    F.addFnAttr("probe-stack", "inline-asm");
  bool Calls = false;
  for (Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB || CB->isInlineAsm())
      continue;
    if (auto *CI = dyn_cast<CallInst>(CB); CI && !CI->isMustTailCall())
      CI->setTailCallKind(CallInst::TCK_NoTail);
    if (!isa<IntrinsicInst>(CB)) {
      CB->addFnAttr(Attribute::NoBuiltin);
      Calls = true;
    }
  }
  if (Calls) { // the checks' slow path included
    F.removeFnAttr(Attribute::Memory);
    F.removeFnAttr(Attribute::WillReturn);
    F.removeFnAttr(Attribute::NoSync);
  }
  F.addFnAttr(DoneAttr);
}

// Code the checks cannot cover, which would run with every right: a naked
// function's user asm (the loop below skips naked functions: only the
// passes' own have asm there), a function placed in a data section (code
// there could be rewritten after it was compiled), and data placed in an
// executable section (bytes of the source's making run as code).
static void refuseUncheckableCode(Module &M) {
  auto Executable = [](StringRef Sec) {
    return Sec.starts_with(".text") || Sec.starts_with(".init") ||
           Sec.starts_with(".fini") || Sec.starts_with(".ltext");
  };
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    // A name of the ELF conventions (".data", ".bss", ...) makes the
    // section what its name says; any other name takes a function's kind.
    if (F.hasSection() && F.getSection().starts_with(".") &&
        !Executable(F.getSection()))
      reportError(F, "-fdipc-sfi cannot check '" + F.getName() +
                         "': it is placed in section '" + F.getSection() +
                         "', not a code section");
    if (!F.hasFnAttribute(Attribute::Naked))
      continue;
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I);
          CB && CB->isInlineAsm() && !isOwnAsm(*CB))
        reportError(F, "-fdipc-sfi cannot check '" + F.getName() +
                           "': a naked function's inline assembly would run "
                           "unchecked", I.getDebugLoc());
  }
  for (GlobalVariable &GV : M.globals())
    if (GV.hasSection() && Executable(GV.getSection()))
      M.getContext().emitError("dipc: -fdipc-sfi cannot check '" +
                               GV.getName() + "': data placed in section '" +
                               GV.getSection() + "' would be executable");
}

static constexpr StringLiteral SfiFlag = "dipc.sfi";

PreservedAnalyses DipcSfiMarkPass::run(Module &M, ModuleAnalysisManager &) {
  if (M.getModuleFlag(SfiFlag))
    return PreservedAnalyses::all();
  // Max: an LTO link of marked and unmarked modules instruments them all.
  M.addModuleFlag(Module::Max, SfiFlag, 1);
  return PreservedAnalyses::none();
}

PreservedAnalyses DipcSfiPass::run(Module &M, ModuleAnalysisManager &MAM) {
  if (!Always && !M.getModuleFlag(SfiFlag))
    return PreservedAnalyses::all();
  // Top-level asm may define code the checks never see.
  if (!StringRef(M.getModuleInlineAsm()).trim().empty()) {
    M.getContext().emitError("dipc: -fdipc-sfi cannot check top-level asm "
                             "of module '" +
                             M.getModuleIdentifier() +
                             "': its code would run unchecked");
    return PreservedAnalyses::all();
  }
  // A call of an ifunc goes where its resolver said, which no call check
  // sees: a resolver returning getloadavg ran it on another domain's
  // memory (codegen/sfi-ifunc-refused.c).
  for (const GlobalIFunc &IF : M.ifuncs()) {
    M.getContext().emitError("dipc: -fdipc-sfi cannot check ifunc '" +
                             IF.getName() + "' of module '" +
                             M.getModuleIdentifier() +
                             "': its calls go wherever its resolver says, "
                             "unchecked");
    return PreservedAnalyses::all();
  }
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool Changed = markNoteSfi(M);
  refuseUncheckableCode(M);
  StringSet<> TagOnlyCallees;
  for (Function &F : M) {
    if (F.isDeclaration() || F.hasFnAttribute(Attribute::Naked) ||
        F.hasFnAttribute(DoneAttr))
      continue;
    if (moveCheckedLocals(F))
      FAM.invalidate(F, PreservedAnalyses::none());
    Instrumenter I(F, FAM.getResult<DominatorTreeAnalysis>(F),
                   FAM.getResult<LoopAnalysis>(F),
                   FAM.getResult<TargetLibraryAnalysis>(F), TagOnlyCallees);
    if (!I.collect())
      continue; // reported
    I.plan();
    I.emit();
    I.finish();
    FAM.invalidate(F, PreservedAnalyses::none());
    Changed = true;
  }
  // The loader refuses those of libc it does not check (dipc/sfi.h).
  std::vector<std::string> Names;
  for (const auto &E : TagOnlyCallees)
    Names.push_back(E.getKey().str());
  llvm::sort(Names);
  emitCallsNote(M, Names);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace dipc
