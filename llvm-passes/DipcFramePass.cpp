// DipcFramePass.cpp - re-establishes, after the optimiser, what the caller
// stubs rely on: the inliner may have moved a stub into a function with a
// frame pointer or a red zone, and later passes may have appended code
// after a domain's end marker.
//
//   opt -load-pass-plugin=DipcPass.so -passes=dipc,dipc-frame in.ll
//
// A function that still needs a frame pointer (variable-sized or
// over-aligned stack objects) cannot keep rbp safe across an inline stub:
// that is reported, since DipcPass already sends such functions' own calls
// through thunks and only inlining can bring a stub in.
#include "DipcFramePass.h"
#include "CallerStubs.h"
#include "Diagnostics.h"
#include "DomainLayout.h"
#include "StubAsm.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace dipc {

static bool carriesCallerStub(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (const auto *CB = dyn_cast<CallBase>(&I))
      if (const auto *IA = dyn_cast<InlineAsm>(CB->getCalledOperand());
          IA && StringRef(IA->getAsmString()).starts_with(CallerStubTag))
        return true;
  return false;
}

PreservedAnalyses DipcFramePass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !carriesCallerStub(F))
      continue;
    if (needsFramePointer(F)) {
      reportError(F, "a cross-domain call was inlined into '" + F.getName() +
                         "', which needs a frame pointer (variable-sized or "
                         "over-aligned stack objects), so rbp could not be "
                         "protected; mark the inlined function noinline");
      continue;
    }
    if (F.getFnAttribute("frame-pointer").getValueAsString() != "none" ||
        !F.hasFnAttribute(Attribute::NoRedZone)) {
      prepareStubCarrier(F);
      Changed = true;
    }
  }
  keepEndMarkersLast(M);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace dipc
