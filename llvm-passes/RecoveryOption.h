// RecoveryOption.h - the pass options: -dipc-recovery=setjmp|try (set by
// `dipc-clang -fdipc-recovery=`), -dipc-domain=NAME (`-fdipc-domain=`) and
// -dipc-sfi (`-fdipc-sfi`).
#ifndef DIPC_PASS_RECOVERYOPTION_H
#define DIPC_PASS_RECOVERYOPTION_H

#include "CallerStubs.h"

namespace dipc {

Recovery recoveryStyle();

// The domain of every unannotated definition of the module; empty if none.
llvm::StringRef moduleDomain();

// Whether the clang pipeline runs dipc-sfi: software access checks.
bool sfiEnabled();

} // namespace dipc

#endif
