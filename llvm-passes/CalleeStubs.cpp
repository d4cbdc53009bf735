// CalleeStubs.cpp - the callee side of a cross-domain call (docs/abi.md §3).
//
// The stub of entry E is an ordinary SysV function with E's signature that
// calls E; with reg_confidentiality in E's policy it zeroes every
// caller-saved register that does not hold a result (and the flags) just
// before returning, so nothing of the callee leaks to the caller. Callee-saved
// registers hold the caller's own values again by then.
#include "CalleeStubs.h"
#include "Diagnostics.h"
#include "StubAsm.h"
#include "dipc.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace dipc {

// E may let a C++ exception escape: it may unwind and the module is C++ (C
// functions are nounwind unless built with -fexceptions; C++ modules
// reference the C++ personality or mangled names).
static bool mayThrowCxx(const Function &Entry) {
  if (Entry.doesNotThrow())
    return false;
  const Module &M = *Entry.getParent();
  return M.getFunction("__gxx_personality_v0") ||
         llvm::any_of(M, [](const Function &F) {
           return F.getName().starts_with("_Z") ||
                  F.getName().starts_with("__cxa_");
         });
}

static Function *createStub(Module &M, Function &Entry, const CallShape &Shape,
                            dipc_policy_t Policy) {
  auto *Stub =
      Function::Create(Entry.getFunctionType(), GlobalValue::InternalLinkage,
                       "__dipc_callee." + Entry.getName(), M);
  Stub->copyAttributesFrom(&Entry);
  Stub->setLinkage(GlobalValue::InternalLinkage);
  Stub->setVisibility(GlobalValue::DefaultVisibility);
  Stub->setComdat(nullptr);
  Stub->setDSOLocal(true);
  // Reached only through proxies: never inline it or drop it.
  Stub->removeFnAttr(Attribute::AlwaysInline);
  Stub->addFnAttr(Attribute::NoInline);

  LLVMContext &Ctx = M.getContext();
  auto *BB = BasicBlock::Create(Ctx, "", Stub);
  IRBuilder<> B(BB);
  SmallVector<Value *, 8> Args(llvm::make_pointer_range(Stub->args()));
  CallBase *Call;
  if (mayThrowCxx(Entry)) {
    // Exceptions do not cross domains: one escaping E is caught and
    // destroyed here, then the stub traps at a site the runtime recognises
    // (rt/recovery.c), which fails the call with DIPC_EEXCEPTION through
    // the same recovery as a fault.
    Type *Ptr = PointerType::get(Ctx, 0);
    Stub->setPersonalityFn(cast<Constant>(
        M.getOrInsertFunction("__gxx_personality_v0",
                              FunctionType::get(B.getInt32Ty(), true))
            .getCallee()));
    Stub->setUWTableKind(UWTableKind::Default);
    Stub->removeFnAttr(Attribute::NoUnwind);
    auto *Ok = BasicBlock::Create(Ctx, "ok", Stub);
    auto *Pad = BasicBlock::Create(Ctx, "escaped", Stub);
    Call = B.CreateInvoke(Entry.getFunctionType(), &Entry, Ok, Pad, Args);
    B.SetInsertPoint(Pad);
    LandingPadInst *LP =
        B.CreateLandingPad(StructType::get(Ptr, B.getInt32Ty()), 1);
    LP->addClause(ConstantPointerNull::get(PointerType::get(Ctx, 0)));
    B.CreateCall(M.getOrInsertFunction("__cxa_begin_catch", Ptr, Ptr),
                 {B.CreateExtractValue(LP, 0)});
    B.CreateCall(M.getOrInsertFunction("__cxa_end_catch", B.getVoidTy()));
    auto *Trap =
        InlineAsm::get(FunctionType::get(B.getVoidTy(), false),
                       ".p2align 4\n\tud2\n\t.ascii \"DIPCEXCP\"", "", true);
    CallInst *TrapCall = B.CreateCall(Trap);
    TrapCall->setDoesNotReturn();
    markOwnAsm(*TrapCall);
    B.CreateUnreachable();
    B.SetInsertPoint(Ok);
  } else {
    Call = B.CreateCall(Entry.getFunctionType(), &Entry, Args);
  }
  Call->setAttributes(Entry.getAttributes());
  Value *Result = Call->getType()->isVoidTy() ? nullptr : Call;
  if (Policy & reg_confidentiality) {
    // The scrub asm calls the runtime vector: nothing may live below rsp.
    Stub->addFnAttr(Attribute::NoRedZone);
    Result = scrubBeforeReturn(
        B, Result, Shape, Entry.getAttributes().hasRetAttr(Attribute::SExt),
        hasAVX(Entry), Entry.getName());
  }
  B.CreateRet(Result);
  return Stub;
}

bool buildCalleeStubs(Module &M, DomainModel &Model,
                      std::vector<EntryStub> &Stubs) {
  SmallVector<Function *, 8> Defined;
  for (Function &F : M)
    if (Model.isEntry(&F) && !F.isDeclaration())
      Defined.push_back(&F);
  for (Function *Entry : Defined) {
    std::string Why;
    std::optional<CallShape> Shape =
        describeCall(Entry->getFunctionType(), Entry->getAttributes(),
                     M.getDataLayout(), Why);
    if (!Shape) {
      reportError(*Entry, "entry point '" + Entry->getName() +
                              "' cannot be called across domains: " + Why);
      return false;
    }
    Function *Stub = createStub(M, *Entry, *Shape, Model.isoCallee(Entry));
    if (auto It = Model.Domain.find(Entry); It != Model.Domain.end()) {
      std::string Domain = It->second; // the insertion below may rehash
      Model.Domain[Stub] = Domain;
    }
    Stubs.push_back({Entry, Stub, *Shape});
  }
  return true;
}

} // namespace dipc
