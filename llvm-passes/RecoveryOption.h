// RecoveryOption.h - the -dipc-recovery=setjmp|try option (set by
// `dipc-clang -fdipc-recovery=`).
#ifndef DIPC_PASS_RECOVERYOPTION_H
#define DIPC_PASS_RECOVERYOPTION_H

#include "CallerStubs.h"

namespace dipc {

Recovery recoveryStyle();

} // namespace dipc

#endif
