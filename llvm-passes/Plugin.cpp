// Plugin.cpp - registration of the dIPC passes with the new pass manager.
//
//   opt -load-pass-plugin=DipcPass.so -passes=... in.ll
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

// Set by `dipc-clang -fdipc-recovery=`; the driver also loads this plugin
// with -fplugin so the option exists when clang parses -mllvm.
static cl::opt<std::string>
    RecoveryStyle("dipc-recovery", cl::init("setjmp"),
                  cl::desc("Callee-crash recovery in caller stubs: setjmp "
                           "or try"));

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "DipcPass", LLVM_VERSION_STRING,
          [](PassBuilder &) {}};
}
