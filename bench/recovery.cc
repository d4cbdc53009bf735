// recovery.cc - the cost of the compiler's recovery stubs (paper §5.3.1:
// try-style ~2.5x faster than setjmp-style on the normal path). One
// cross-domain call per iteration from the default domain into
// "bench_callee" (recovery_callee.c), under the backend DIPC_BACKEND picks:
//   recovery/none    the same proxy called without a caller stub;
//   recovery/setjmp  through the stub built with -fdipc-recovery=setjmp;
//   recovery/try     through the stub built with -fdipc-recovery=try;
//   recovery/*_fault the callee crashes (SIGSEGV) every call and the stub
//                    returns 0 with dipc_errno == DIPC_EFAULT.
// The domain is loaded by hand (hand_loader.h), and SIGSEGV goes to the
// runtime's __dipc_recover_from_fault, as the loader will do.
#include "hand_loader.h"
#include "peer.h"
#include "recovery_entries.h"

#include <benchmark/benchmark.h>
#include <dipc/rt.h>

#include <signal.h>
#include <sys/mman.h>

#include <map>
#include <string>

extern "C" {
extern int (*recovery_increment_proxy)(int);
int recovery_none_call(int x);
// Weak: a runtime without fault recovery still links; the fault-path
// benchmarks are then not registered, and the run's context says why.
int __dipc_recover_from_fault(void *ucontext) __attribute__((weak));
}

namespace dipc_bench {
namespace {

// SIGSEGV in the callee: the runtime resumes the caller's stub. Any other
// fault is not ours: restore the default action and let it happen again.
void OnCrash(int, siginfo_t *, void *context) {
  if (!__dipc_recover_from_fault(context))
    signal(SIGSEGV, SIG_DFL);
}

class CalleeDomain {
public:
  static const CalleeDomain &Get() {
    static const CalleeDomain domain;
    return domain;
  }
  const std::string &error() const { return error_; }

private:
  CalleeDomain() {
    const LoadedDomain loaded = LoadDomainByHand(
        "bench_callee", {"recovery_increment", "recovery_crash"});
    if (!(error_ = loaded.error).empty())
      return;
    recovery_increment_proxy =
        reinterpret_cast<int (*)(int)>(loaded.proxies[0]);
    if (__dipc_recover_from_fault)
      InstallCrashHandler();
  }

  void InstallCrashHandler() {
    stack_t alternate = {};
    alternate.ss_size = 64 * 1024;
    alternate.ss_sp = mmap(nullptr, alternate.ss_size, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    struct sigaction action = {};
    action.sa_sigaction = OnCrash;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    if (alternate.ss_sp == MAP_FAILED ||
        sigaltstack(&alternate, nullptr) != 0 ||
        sigaction(SIGSEGV, &action, nullptr) != 0)
      error_ = "cannot install the SIGSEGV handler";
  }

  std::string error_;
};

void NormalPath(benchmark::State &state, int (*call)(int)) {
  const CalleeDomain &domain = CalleeDomain::Get();
  if (!domain.error().empty()) {
    state.SkipWithError(domain.error().c_str());
    return;
  }
  int x = 0;
  for (auto _ : state) {
    x = call(x);
    benchmark::DoNotOptimize(x);
  }
  if (static_cast<unsigned>(x) != static_cast<unsigned>(state.iterations()))
    state.SkipWithError("the callee did not run once per iteration");
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
  const CalleeDomain &domain = CalleeDomain::Get();
  if (!domain.error().empty()) {
    state.SkipWithError(domain.error().c_str());
    return;
  }
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
  if (!__dipc_recover_from_fault) {
    benchmark::AddCustomContext(
        "not_measured", "Recovery stubs, fault path: the runtime has no "
                        "__dipc_recover_from_fault yet");
    return true;
  }
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
