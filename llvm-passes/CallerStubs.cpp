// CallerStubs.cpp - the caller side of a cross-domain call (docs/abi.md §§3-4).
//
// At a call from domain A to entry E of domain B, the stub is emitted inline:
//   [recovery setup]; r = asm "call *%r11"(args, *slot)
// so the register allocator sees the real liveness around the call. A
// normal return leaves dipc_errno 0: the proxy clears it on its way back (a
// fault nested inside the callee that the callee survived does not show
// through), so the stub does not store it again (one store fewer per call;
// every slot leads to a runtime proxy). The stub touches no memory of the
// default domain: A's slot is in A's own data pages, and
// __dipc_setjmp_arm is called through the runtime vector (dipc/abi.h), never
// the PLT/GOT. Calls the
// inline form cannot serve (invokes, musttail, functions that keep a frame
// pointer) call the import's thunk instead: a small function holding the same
// stub. An entry's address is its anycall stub, which works from any domain.
#include "CallerStubs.h"
#include "Diagnostics.h"
#include "RecoveryOption.h"
#include "SfiChecks.h"
#include "StubAsm.h"
#include "dipc.h"
#include "dipc/abi.h"
#include "dipc/metadata.h"
#include "dipc/sfi.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Format.h"
#include <map>

using namespace llvm;

namespace dipc {

bool needsFramePointer(const Function &F) {
  if (F.hasFnAttribute(Attribute::StackAlignment) ||
      F.hasFnAttribute("stackrealign"))
    return true;
  for (const Instruction &I : instructions(F)) {
    if (const auto *AI = dyn_cast<AllocaInst>(&I);
        AI && (!AI->isStaticAlloca() || AI->getAlign() > Align(16)))
      return true;
    if (const auto *II = dyn_cast<IntrinsicInst>(&I);
        II && (II->getIntrinsicID() == Intrinsic::frameaddress ||
               II->getIntrinsicID() == Intrinsic::localescape))
      return true;
  }
  return false;
}

void prepareStubCarrier(Function &F) {
  F.addFnAttr("frame-pointer", "none");
  F.addFnAttr(Attribute::NoRedZone);
}

namespace {

class CallerStubBuilder {
public:
  CallerStubBuilder(Module &M, DomainModel &Model, Recovery Style,
                    std::vector<Import> &Imports,
                    std::vector<Anycall> &Anycalls)
      : M(M), Ctx(M.getContext()), Model(Model), Style(Style),
        Imports(Imports), Anycalls(Anycalls) {}

  bool run();

private:
  Import *importFor(Function &Entry, StringRef Domain, dipc_policy_t Policy,
                    const Function &User, const DebugLoc &Loc);
  Recovery styleFor(StringRef CallerDomain) const;
  void emitInlineStub(CallInst *CI, Import &Imp);
  Function *thunkFor(Import &Imp);
  bool lowerCall(CallBase *CB, Function &Entry);
  Function *anycallFor(Function &Entry, const Function &Blame,
                       const DebugLoc &Loc);
  bool lowerAddressUses(Function &Entry);

  Module &M;
  LLVMContext &Ctx;
  DomainModel &Model;
  Recovery Style;
  std::vector<Import> &Imports;
  std::vector<Anycall> &Anycalls;
  // Position in Imports: pointers into it last only until the next import.
  std::map<std::tuple<std::string, dipc_policy_t, Function *>, size_t> Index;
};

} // namespace

static std::string hexPolicy(dipc_policy_t P) {
  std::string S;
  raw_string_ostream(S) << format_hex_no_prefix(P, 2);
  return S;
}

Import *CallerStubBuilder::importFor(Function &Entry, StringRef Domain,
                                     dipc_policy_t Policy, const Function &User,
                                     const DebugLoc &Loc) {
  auto Key = std::make_tuple(Domain.str(), Policy, &Entry);
  if (auto It = Index.find(Key); It != Index.end())
    return &Imports[It->second];
  std::string Why;
  std::optional<CallShape> Shape = describeCall(
      Entry.getFunctionType(), Entry.getAttributes(), M.getDataLayout(), Why);
  if (!Shape) {
    reportError(User,
                "cannot call entry point '" + Entry.getName() +
                    "' of domain '" + Model.domainOf(&Entry) +
                    "' across domains: " + Why,
                Loc);
    return nullptr;
  }
  // One slot per object for each (domain, policy, entry): the copies of
  // several translation units merge (the name says domain, policy, entry).
  std::string Name = ("__dipc_slot." + Domain + "." + hexPolicy(Policy) + "." +
                      Entry.getName())
                         .str();
  auto *Unresolved = cast<Function>(
      M.getOrInsertFunction(DIPC_UNRESOLVED_IMPORT_SYMBOL, Type::getVoidTy(Ctx))
          .getCallee());
  auto *Slot =
      new GlobalVariable(M, PointerType::get(Ctx, 0), false,
                         GlobalValue::LinkOnceODRLinkage, Unresolved, Name);
  Slot->setVisibility(GlobalValue::HiddenVisibility);
  Slot->setAlignment(Align(8));
  if (Domain == DIPC_DEFAULT_DOMAIN) {
    // A comdat: the linker keeps one copy.
    Slot->setComdat(M.getOrInsertComdat(Name));
    Slot->setSection(DIPC_SLOTS_SECTION);
  } else {
    // The caller's own data pages (layOutDomains puts it in dipc_data_A),
    // so that its stubs need no access to the default domain. No comdat: a
    // comdat copy is an input section of its own, which the linker may
    // place after the object's end marker, outside the domain's pages. A
    // weak definition instead: every reference binds to one copy, the
    // others stay unused inside the domain's pages.
    Model.Domain[Slot] = Domain.str();
  }
  Imports.push_back({&Entry, Domain.str(), Policy, Slot, *Shape});
  Index[Key] = Imports.size() - 1;
  return &Imports.back();
}

// Try-style recovery unwinds with libgcc, which reads and writes memory of
// the default domain (ld.so's list of objects, .eh_frame_hdr, its own
// state) in the caller's domain. A domain without write access to the
// default domain (as far as this module's grants say) gets setjmp-style
// stubs instead: same observable result, nothing of the default domain.
Recovery CallerStubBuilder::styleFor(StringRef CallerDomain) const {
  if (Style != Recovery::Try || CallerDomain == DIPC_DEFAULT_DOMAIN)
    return Style;
  bool MayWriteDefault = llvm::any_of(Model.Grants, [&](const Grant &G) {
    return G.From == CallerDomain && G.To == DIPC_DEFAULT_DOMAIN &&
           G.Perm >= DIPC_PERM_WRITE;
  });
  return MayWriteDefault ? Recovery::Try : Recovery::SetJmp;
}

void CallerStubBuilder::emitInlineStub(CallInst *CI, Import &Imp) {
  Function &Caller = *CI->getFunction();
  prepareStubCarrier(Caller);
  Type *I32 = Type::getInt32Ty(Ctx);
  Recovery StubStyle = styleFor(Imp.CallerDomain);
  SmallVector<Value *, 8> Args(CI->args());
  Type *RetTy = CI->getType();

  BasicBlock *Head = CI->getParent();
  BasicBlock *Join = Head->splitBasicBlock(CI, "dipc.join");
  Head->getTerminator()->eraseFromParent();
  IRBuilder<> B(Head);
  B.SetCurrentDebugLocation(CI->getDebugLoc());

  BasicBlock *Fault = BasicBlock::Create(Ctx, "dipc.fault", &Caller, Join);
  BasicBlock *CallBB = Head;
  if (StubStyle == Recovery::SetJmp) {
    // __builtin_setjmp's buffer: [0] frame pointer (none here: 0), [1] resume
    // label (written by the intrinsic), [2] stack pointer.
    IRBuilder<> Entry(&Caller.getEntryBlock(),
                      Caller.getEntryBlock().getFirstInsertionPt());
    Type *PtrTy = PointerType::get(Ctx, 0);
    AllocaInst *Buf =
        Entry.CreateAlloca(ArrayType::get(PtrTy, 5), nullptr, "dipc.jmpbuf");
    Buf->setAlignment(Align(16));
    B.CreateStore(ConstantPointerNull::get(PointerType::get(Ctx, 0)), Buf);
    Value *SP = B.CreateStackSave();
    B.CreateStore(SP, B.CreateConstInBoundsGEP1_32(PtrTy, Buf, 2));
    Value *Jumped = B.CreateIntrinsic(Intrinsic::eh_sjlj_setjmp, {}, {Buf});
    CallBB = BasicBlock::Create(Ctx, "dipc.call", &Caller, Fault);
    B.CreateCondBr(B.CreateICmpNE(Jumped, ConstantInt::get(I32, 0)), Fault,
                   CallBB);
    B.SetInsertPoint(CallBB);
    // __dipc_setjmp_arm(buf), through the runtime vector.
    Value *Arm = B.CreateAlignedLoad(
        PtrTy,
        ConstantExpr::getIntToPtr(
            ConstantInt::get(Type::getInt64Ty(Ctx), DIPC_VECTOR_SETJMP_ARM),
            PtrTy),
        Align(8), "dipc.arm");
    cast<LoadInst>(Arm)->setMetadata(LLVMContext::MD_invariant_load,
                                     MDNode::get(Ctx, {}));
    // The runtime vector, which every domain may read: no -fdipc-sfi check.
    cast<LoadInst>(Arm)->setMetadata(SfiOwnAccessMD, MDNode::get(Ctx, {}));
    B.CreateCall(FunctionType::get(Type::getVoidTy(Ctx), {PtrTy}, false), Arm,
                 {Buf});
  }

  // Not checked under -fdipc-sfi: the slot is a fixed global of the domain
  // of the code that reads it, and what it yields is only called after the
  // call check (a proxy's address reveals nothing).
  LoadInst *Proxy =
      B.CreateLoad(PointerType::get(Ctx, 0), Imp.Slot, "dipc.proxy");
  Proxy->setMetadata(SfiOwnAccessMD, MDNode::get(Ctx, {}));
  ProxyCall PC = buildProxyCall(B, Imp.Shape, Imp.Entry->getFunctionType(),
                                Imp.Entry->getAttributes(), Args, Proxy,
                                Imp.CallerPolicy, StubStyle == Recovery::Try,
                                hasAVX(Caller), Imp.Entry->getName(),
                                StubStyle == Recovery::SetJmp && sfiEnabled());
  Value *Raw;
  if (StubStyle == Recovery::Try) {
    // asm unwind: the runtime raises the fault from the call's return point
    // and the cleanup pad below turns it into DIPC_EFAULT.
    BasicBlock *Ok = BasicBlock::Create(Ctx, "dipc.ok", &Caller, Join);
    Raw = B.CreateInvoke(PC.Asm, Ok, Fault, PC.Operands);
    markOwnAsm(*cast<CallBase>(Raw));
    markStubCall(*cast<CallBase>(Raw), PC.ProxyOperand);
    B.SetInsertPoint(Ok);
    B.CreateBr(Join);
    if (!Caller.hasPersonalityFn())
      Caller.setPersonalityFn(
          cast<Constant>(M.getOrInsertFunction("__gcc_personality_v0",
                                               FunctionType::get(I32, true))
                             .getCallee()));
    if (!Caller.hasUWTable())
      Caller.setUWTableKind(UWTableKind::Default);
  } else {
    Raw = B.CreateCall(PC.Asm, PC.Operands);
    markOwnAsm(*cast<CallBase>(Raw));
    markStubCall(*cast<CallBase>(Raw), PC.ProxyOperand);
    if (PC.FaultFlag) {
      // Under sfi a faulted call resumes here, not at the buffer's label.
      auto [Results, Faulted] = splitFaultFlag(B, Raw);
      Raw = Results;
      BasicBlock *Ok = BasicBlock::Create(Ctx, "dipc.ok", &Caller, Join);
      B.CreateCondBr(B.CreateICmpEQ(Faulted, ConstantInt::get(
                                                  Faulted->getType(),
                                                  DIPC_RESUME_FAULT)),
                     Fault, Ok);
      B.SetInsertPoint(Ok);
    }
    B.CreateBr(Join);
  }
  BasicBlock *Normal = B.GetInsertBlock();
  Value *Result = nullptr;
  if (!RetTy->isVoidTy()) {
    // The results are unpacked in Join (an invoke's value is only usable
    // in its normal destination).
    IRBuilder<> JB(Join, Join->getFirstInsertionPt());
    PHINode *Phi = JB.CreatePHI(Raw->getType(), 2, "dipc.raw");
    Phi->addIncoming(Raw, Normal);
    Phi->addIncoming(Constant::getNullValue(Raw->getType()), Fault);
    Result = unpackResults(JB, Phi, Imp.Shape, RetTy);
  }

  B.SetInsertPoint(Fault);
  if (StubStyle == Recovery::Try) {
    auto *LP = B.CreateLandingPad(
        StructType::get(PointerType::get(Ctx, 0), I32), 1, "dipc.lpad");
    LP->setCleanup(true);
    FunctionCallee Landed = M.getOrInsertFunction(
        DIPC_FAULT_LANDED_FN, Type::getVoidTy(Ctx), PointerType::get(Ctx, 0));
    B.CreateCall(Landed, {B.CreateExtractValue(LP, 0)});
  }
  // dipc_errno: the runtime's recovery set it (DIPC_EFAULT or
  // DIPC_EEXCEPTION).
  B.CreateBr(Join);

  if (Result)
    CI->replaceAllUsesWith(Result);
  CI->eraseFromParent();
}

Function *CallerStubBuilder::thunkFor(Import &Imp) {
  if (Imp.Thunk)
    return Imp.Thunk;
  Function &Entry = *Imp.Entry;
  auto *Thunk =
      Function::Create(Entry.getFunctionType(), GlobalValue::InternalLinkage,
                       "__dipc_thunk." + Imp.CallerDomain + "." +
                           hexPolicy(Imp.CallerPolicy) + "." + Entry.getName(),
                       M);
  Thunk->setAttributes(Entry.getAttributes());
  Thunk->removeFnAttr(Attribute::NoReturn);
  // Inlined into a function with a frame pointer, its stub could not keep
  // rbp; the thunk exists for those functions.
  Thunk->addFnAttr(Attribute::NoInline);
  Thunk->setUWTableKind(UWTableKind::Default);
  // Same target as the code around it.
  for (const Function &F : M)
    if (!F.isDeclaration() && F.hasFnAttribute("target-features")) {
      for (StringRef Kind : {"target-cpu", "target-features", "tune-cpu"})
        if (F.hasFnAttribute(Kind))
          Thunk->addFnAttr(F.getFnAttribute(Kind));
      break;
    }
  auto *BB = BasicBlock::Create(Ctx, "", Thunk);
  SmallVector<Value *, 8> Args(llvm::make_pointer_range(Thunk->args()));
  CallInst *Call =
      CallInst::Create(Entry.getFunctionType(), &Entry, Args, "", BB);
  Call->setAttributes(Entry.getAttributes());
  ReturnInst::Create(Ctx, Call->getType()->isVoidTy() ? nullptr : Call, BB);
  if (Imp.CallerDomain != DIPC_DEFAULT_DOMAIN)
    Model.Domain[Thunk] = Imp.CallerDomain;
  Imp.Thunk = Thunk;
  emitInlineStub(Call, Imp);
  return Thunk;
}

bool CallerStubBuilder::lowerCall(CallBase *CB, Function &Entry) {
  Function &Caller = *CB->getFunction();
  if (CB->getFunctionType() != Entry.getFunctionType()) {
    std::string Want, Got;
    raw_string_ostream(Want) << *Entry.getFunctionType();
    raw_string_ostream(Got) << *CB->getFunctionType();
    reportError(Caller,
                "call to entry point '" + Entry.getName() + "' of domain '" +
                    Model.domainOf(&Entry) + "' through prototype '" + Got +
                    "', but it is declared '" + Want + "'",
                CB->getDebugLoc());
    return false;
  }
  Import *Imp = importFor(Entry, Model.domainOf(&Caller),
                          Model.isoCaller(&Caller) | Model.isoCaller(&Entry),
                          Caller, CB->getDebugLoc());
  if (!Imp)
    return false;
  auto *CI = dyn_cast<CallInst>(CB);
  if (!CI || CI->isMustTailCall() || needsFramePointer(Caller))
    CB->setCalledOperand(thunkFor(*Imp));
  else
    emitInlineStub(CI, *Imp);
  return true;
}

// Where a non-call use of an entry's address is made: the using function,
// or the global whose initializer holds it.
static const GlobalValue *userOf(const Use &U) {
  const User *Usr = U.getUser();
  while (Usr) {
    if (const auto *I = dyn_cast<Instruction>(Usr))
      return I->getFunction();
    if (const auto *GV = dyn_cast<GlobalValue>(Usr))
      return GV;
    // A constant expression: judge by its (first) user.
    Usr = Usr->use_empty() ? nullptr : *Usr->user_begin();
  }
  return nullptr;
}

// __dipc_anycall.E, shared code, one per linked object (a comdat):
//   lea r11, [rip + __dipc_anycall.E]; jmp [DIPC_VECTOR_ANYCALL]
// The runtime finds E's anycall proxy from r11 (docs/abi.md §4), in a table
// only it writes. Naked: every argument register, rsp and the return
// address reach the proxy as the pointer's caller left them (an entry is
// never variadic, so al is free too).
Function *CallerStubBuilder::anycallFor(Function &Entry, const Function &Blame,
                                        const DebugLoc &Loc) {
  for (const Anycall &A : Anycalls)
    if (A.Entry == &Entry)
      return A.Stub;
  std::string Why;
  std::optional<CallShape> Shape =
      describeCall(Entry.getFunctionType(), Entry.getAttributes(),
                   M.getDataLayout(), Why);
  if (!Shape) {
    reportError(Blame,
                "cannot take the address of entry point '" + Entry.getName() +
                    "' of domain '" + Model.domainOf(&Entry) +
                    "': calls through it cross domains, and " + Why,
                Loc);
    return nullptr;
  }
  std::string Name = ("__dipc_anycall." + Entry.getName()).str();
  auto *Stub = Function::Create(Entry.getFunctionType(),
                                GlobalValue::LinkOnceODRLinkage, Name, M);
  Stub->setVisibility(GlobalValue::HiddenVisibility);
  Stub->setComdat(M.getOrInsertComdat(Name));
  Stub->setAlignment(Align(16));
  Stub->addFnAttr(Attribute::Naked);
  Stub->addFnAttr(Attribute::NoInline);
  Stub->addFnAttr(Attribute::NoUnwind);
  auto *BB = BasicBlock::Create(Ctx, "", Stub);
  std::string Asm;
  raw_string_ostream(Asm) << "leaq ${0:c}(%rip), %r11\n\tjmpq *"
                          << format_hex(DIPC_VECTOR_ANYCALL, 2);
  auto *Ty = FunctionType::get(Type::getVoidTy(Ctx),
                               {PointerType::get(Ctx, 0)}, false);
  markOwnAsm(*CallInst::Create(InlineAsm::get(Ty, Asm, "i,~{r11}", true),
                               {Stub}, "", BB));
  new UnreachableInst(Ctx, BB);
  Anycalls.push_back({&Entry, Stub, *Shape});
  return Stub;
}

// Every address of an entry, whatever domain takes it (its own included),
// becomes its anycall stub: called from any domain, it crosses into the
// entry's domain through a proxy. The raw function would run the entry in
// the caller's domain, and a caller stub of the taking domain would be
// refused when another domain called it.
bool CallerStubBuilder::lowerAddressUses(Function &Entry) {
  auto IsAddressUse = [](const Use &U) {
    const GlobalValue *Owner = userOf(U);
    const auto *CB = dyn_cast<CallBase>(U.getUser());
    return Owner && !Owner->getName().starts_with("llvm.") &&
           !(CB && CB->isCallee(&U));
  };
  const Use *First = nullptr;
  for (const Use &U : Entry.uses())
    if (IsAddressUse(U)) {
      First = &U;
      break;
    }
  if (!First)
    return true;
  const auto *UserFn = dyn_cast<Function>(userOf(*First));
  const auto *UserInst = dyn_cast<Instruction>(First->getUser());
  Function *Stub = anycallFor(Entry, UserFn ? *UserFn : Entry,
                              UserInst ? UserInst->getDebugLoc() : DebugLoc());
  if (!Stub)
    return false;
  // replaceUsesWithIf rebuilds each constant user (an initializer's
  // array, say) once, however many of its operands change.
  Entry.replaceUsesWithIf(Stub, [&](Use &U) { return IsAddressUse(U); });
  return true;
}

bool CallerStubBuilder::run() {
  SmallVector<Function *, 8> Entries;
  for (Function &F : M)
    if (Model.isEntry(&F))
      Entries.push_back(&F);
  for (Function *Entry : Entries) {
    StringRef EntryDomain = Model.domainOf(Entry);
    SmallVector<CallBase *, 8> Calls;
    for (User *U : Entry->users())
      if (auto *CB = dyn_cast<CallBase>(U);
          CB && CB->getCalledOperand() == Entry &&
          Model.domainOf(CB->getFunction()) != EntryDomain)
        Calls.push_back(CB);
    for (CallBase *CB : Calls)
      if (!lowerCall(CB, *Entry))
        return false;
    if (!lowerAddressUses(*Entry))
      return false;
  }
  return true;
}

// Another domain is entered through its entries. A direct call to anything
// else of a named domain is legitimate only with a `call` grant (an APL
// entry, __perm(dom, call)); without one it would fault once isolated, which
// is worth a warning rather than an error (unisolated builds run it).
static void checkNonEntryCalls(Module &M, const DomainModel &Model) {
  for (Function &Caller : M) {
    for (Instruction &I : instructions(Caller)) {
      auto *CB = dyn_cast<CallBase>(&I);
      Function *Callee = CB ? CB->getCalledFunction() : nullptr;
      if (!Callee || Model.isEntry(Callee) || !Model.Domain.count(Callee))
        continue;
      StringRef From = Model.domainOf(&Caller), To = Model.domainOf(Callee);
      bool Granted = llvm::any_of(Model.Grants, [&](const Grant &G) {
        return G.From == From && G.To == To && G.Perm == DIPC_PERM_CALL;
      });
      if (From == To || Granted)
        continue;
      Caller.getContext().diagnose(DiagnosticInfoUnsupported(
          Caller,
          "dipc: call to '" + Callee->getName() + "' of domain '" + To +
              "' from domain '" + From +
              "', which is not an entry point (__entry) and has no call "
              "grant (__perm(\"" +
              To + "\", call)): it faults when isolated",
          CB->getDebugLoc(), DS_Warning));
    }
  }
}

static bool carriesInlineStub(const Function &F) {
  return F.hasFnAttribute(Attribute::NoRedZone) &&
         llvm::any_of(instructions(F), [](const Instruction &I) {
           const auto *CB = dyn_cast<CallBase>(&I);
           return CB && CB->isInlineAsm() &&
                  StringRef(
                      cast<InlineAsm>(CB->getCalledOperand())->getAsmString())
                      .starts_with(CallerStubTag);
         });
}

// The inliner must not bring a stub into a function with a frame pointer:
// calls from such functions to functions that carry a stub, directly or
// through their own callees, become noinline.
static void keepStubsOutOfFramedFunctions(Module &M) {
  SmallPtrSet<const Function *, 16> Carriers;
  for (const Function &F : M)
    if (carriesInlineStub(F))
      Carriers.insert(&F);
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const Function &F : M)
      if (!Carriers.count(&F) &&
          llvm::any_of(instructions(F), [&](const Instruction &I) {
            const auto *CB = dyn_cast<CallBase>(&I);
            return CB && Carriers.count(CB->getCalledFunction());
          }))
        Grew = Carriers.insert(&F).second;
  }
  for (Function &F : M) {
    if (F.isDeclaration() || !needsFramePointer(F))
      continue;
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I);
          CB && Carriers.count(CB->getCalledFunction()))
        CB->setIsNoInline();
  }
}

bool lowerCrossDomainUses(Module &M, DomainModel &Model, Recovery Style,
                          std::vector<Import> &Imports,
                          std::vector<Anycall> &Anycalls) {
  checkNonEntryCalls(M, Model);
  if (!CallerStubBuilder(M, Model, Style, Imports, Anycalls).run())
    return false;
  keepStubsOutOfFramedFunctions(M);
  return true;
}

} // namespace dipc
