// recovery.cc - the cost of the compiler's recovery stubs (paper §5.3.1:
// try-style ~2.5x faster than setjmp-style on the normal path), run under
// dipc-run. One cross-domain call per iteration from the default domain into
// "bench_callee" (recovery_callee.c), under the backend dipc-run selects:
//   recovery/none    the same proxy called without a caller stub;
//   recovery/setjmp  through the stub built with -fdipc-recovery=setjmp;
//   recovery/try     through the stub built with -fdipc-recovery=try;
//   recovery/*_fault the callee crashes (SIGSEGV) every call and the stub
//                    returns 0 with dipc_errno == DIPC_EFAULT (the loader's
//                    crash handler hands the fault to the runtime).
#include "count_calls.h"
#include "peer.h"
#include "records.h"
#include "recovery_entries.h"

#include <benchmark/benchmark.h>
#include <dipc/rt.h>

#include <map>
#include <string>

extern "C" {
extern int (*recovery_increment_proxy)(int);
int recovery_none_call(int x);
}

namespace dipc_bench {
namespace {

// The proxy for recovery/none: the loader stores it in the import slot at
// the first call through a stub, so make one and read the slot.
std::string FindProxy() {
  void **slot = bench_import_slot("recovery_increment");
  if (slot == nullptr)
    return "no import record for recovery_increment";
  if (recovery_try_call(0) != 1)
    return "the first call through the stub failed";
  recovery_increment_proxy = reinterpret_cast<int (*)(int)>(*slot);
  return "";
}

void NormalPath(benchmark::State &state, int (*call)(int)) {
  static const std::string error = FindProxy();
  if (!error.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }
  countCalls(state, call);
}

// Whether a callee crash comes back to `crash`'s stub as DIPC_EFAULT, tried
// once in a child process: a recovery that kills the process then fails one
// benchmark instead of losing every figure of this run.
std::string ProbeRecovery(int (*crash)(int)) {
  PeerProcess probe(-1, [crash] { return crash(1) == 1 ? 0 : 1; });
  const std::string error = probe.Finish();
  return error.empty() ? ""
                       : "a callee crash was not recovered (probe: " + error +
                             "; its stderr says why)";
}

void FaultPath(benchmark::State &state, int (*crash)(int)) {
  static std::map<int (*)(int), std::string> probed;
  if (!probed.count(crash))
    probed[crash] = ProbeRecovery(crash);
  if (!probed[crash].empty()) {
    state.SkipWithError(probed[crash].c_str());
    return;
  }
  int x = 0;
  for (auto _ : state) {
    if (!crash(++x)) {
      state.SkipWithError("the crash did not come back as DIPC_EFAULT");
      break;
    }
  }
  if (dipc_kcs_depth() != 0 || dipc_current_domain() != 0)
    state.SkipWithError("recovery left a cross-domain call open");
}

const bool registered = [] {
  benchmark::AddCustomContext("dipc_backend", dipc_backend());
  benchmark::RegisterBenchmark("recovery/none", NormalPath, recovery_none_call)
      ->UseRealTime();
  benchmark::RegisterBenchmark("recovery/setjmp", NormalPath,
                               recovery_setjmp_call)
      ->UseRealTime();
  benchmark::RegisterBenchmark("recovery/try", NormalPath, recovery_try_call)
      ->UseRealTime();
  benchmark::RegisterBenchmark("recovery/setjmp_fault", FaultPath,
                               recovery_setjmp_crash)
      ->UseRealTime();
  benchmark::RegisterBenchmark("recovery/try_fault", FaultPath,
                               recovery_try_crash)
      ->UseRealTime();
  return true;
}();

} // namespace
} // namespace dipc_bench
