// DipcPass.cpp - lowers the dIPC annotations of a module: domain model,
// callee stubs, caller stubs and thunks, domain sections, ELF records.
//
//   opt -load-pass-plugin=DipcPass.so -passes=dipc [-dipc-recovery=try] in.ll
//
// Runs at the start of the pipeline (also at -O0), so the optimiser and the
// register allocator see the stubs' inline asm in place. The annotations it
// reads stay (the attribute tests and other tools read them); the module is
// marked !dipc.lowered instead, so running it twice changes nothing the
// second time.
#include "DipcPass.h"
#include "CalleeStubs.h"
#include "CallerStubs.h"
#include "DomainLayout.h"
#include "DomainModel.h"
#include "MetadataRecords.h"
#include "RecoveryOption.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace dipc {

static bool lowerModule(Module &M, DomainModel &Model) {
  std::vector<EntryStub> Entries;
  if (!buildCalleeStubs(M, Model, Entries))
    return false;
  std::vector<Import> Imports;
  std::vector<Anycall> Anycalls;
  if (!lowerCrossDomainUses(M, Model, recoveryStyle(), Imports, Anycalls))
    return false;
  adoptPrivateGlobals(M, Model);
  DomainSections Sections = layOutDomains(M, Model);
  emitMetadataRecords(M, Model, Sections, Entries, Imports, Anycalls);
  return true;
}

static constexpr StringLiteral LoweredMarker = "dipc.lowered";

PreservedAnalyses DipcPass::run(Module &M, ModuleAnalysisManager &) {
  if (M.getNamedMetadata(LoweredMarker))
    return PreservedAnalyses::all();
  std::optional<DomainModel> Model = readDomainModel(M);
  if (!Model || (Model->empty() && Model->Grants.empty()))
    return PreservedAnalyses::all();
  if (lowerModule(M, *Model)) // else an error was reported
    M.getOrInsertNamedMetadata(LoweredMarker);
  return PreservedAnalyses::none();
}

} // namespace dipc
