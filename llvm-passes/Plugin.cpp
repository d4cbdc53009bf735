// Plugin.cpp - registration of the dIPC passes with the new pass manager.
//
//   opt -load-pass-plugin=DipcPass.so -passes=dipc,dipc-frame in.ll
//   opt -load-pass-plugin=DipcPass.so -passes=dipc-unsafe-stack in.ll
//   opt -load-pass-plugin=DipcPass.so -passes=dipc-sfi in.ll
//
// Under clang (-fpass-plugin) `dipc` runs at the pipeline start, before any
// inlining, and `dipc-frame` then `dipc-unsafe-stack` last before code
// generation; both extension points are invoked by the -O0 pipeline too.
// Under -dipc-sfi, the module is marked at the start and `dipc-sfi` runs
// after the two late passes. Under lld (full LTO), the late passes run
// again after link-time inlining, dipc-sfi included: an -flto object is
// instrumented there, as its compile-time pipeline stops before the
// optimiser's last point.
#include "DipcFramePass.h"
#include "DipcPass.h"
#include "RecoveryOption.h"
#include "SfiChecks.h"
#include "SfiControlFlow.h"
#include "UnsafeStack.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

// Set by `dipc-clang -fdipc-recovery=`; the driver also loads this plugin
// with -fplugin so the option exists when clang parses -mllvm.
static cl::opt<dipc::Recovery> RecoveryStyle(
    "dipc-recovery", cl::init(dipc::Recovery::SetJmp),
    cl::desc("Callee-crash recovery in caller stubs"),
    cl::values(clEnumValN(dipc::Recovery::SetJmp, "setjmp",
                          "save state before each call, resume on a fault"),
               clEnumValN(dipc::Recovery::Try, "try",
                          "invoke the call; a landing pad handles a fault")));

dipc::Recovery dipc::recoveryStyle() { return RecoveryStyle; }

// Set by `dipc-clang -fdipc-domain=NAME`: a whole translation unit (e.g. a
// third-party library) in one domain without annotating its source.
static cl::opt<std::string>
    ModuleDomain("dipc-domain", cl::init(""), cl::value_desc("name"),
                 cl::desc("Domain of every unannotated definition"));

StringRef dipc::moduleDomain() { return ModuleDomain; }

// Set by `dipc-clang -fdipc-sfi`: the `sfi` backend's checks, compiled in.
static cl::opt<bool> Sfi("dipc-sfi", cl::init(false),
                         cl::desc("Check every memory access in software "
                                  "(include/dipc/sfi.h)"));

bool dipc::sfiEnabled() { return Sfi; }

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "DipcPass", LLVM_VERSION_STRING,
          [](PassBuilder &PB) {
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name == "dipc") {
                    MPM.addPass(dipc::DipcPass());
                    return true;
                  }
                  if (Name == "dipc-frame") {
                    MPM.addPass(dipc::DipcFramePass());
                    return true;
                  }
                  if (Name == "dipc-unsafe-stack") {
                    MPM.addPass(dipc::DipcUnsafeStackPass());
                    return true;
                  }
                  if (Name == "dipc-sfi") {
                    MPM.addPass(dipc::DipcSfiPass(/*Always=*/true));
                    return true;
                  }
                  if (Name == "dipc-sfi-cfi") {
                    MPM.addPass(dipc::DipcSfiCfiPass(/*Always=*/true));
                    return true;
                  }
                  return false;
                });
            PB.registerPipelineStartEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(dipc::DipcPass());
                  if (dipc::sfiEnabled())
                    MPM.addPass(dipc::DipcSfiMarkPass());
                });
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(dipc::DipcFramePass());
                  MPM.addPass(dipc::DipcUnsafeStackPass());
                  // Last: it checks the accesses of the final IR (of a
                  // module marked at the start; not in an LTO pre-link
                  // pipeline, which does not invoke this point).
                  MPM.addPass(dipc::DipcSfiPass());
                  MPM.addPass(dipc::DipcSfiCfiPass());
                });
            // Full LTO inlines across objects after the compile-time check
            // (the driver loads this plugin into lld).
            PB.registerFullLinkTimeOptimizationLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(dipc::DipcFramePass());
                  MPM.addPass(dipc::DipcUnsafeStackPass());
                  MPM.addPass(dipc::DipcSfiPass());
                  MPM.addPass(dipc::DipcSfiCfiPass());
                });
          }};
}
