// recovery.cc - the cost of the compiler's recovery stubs (paper §5.3.1:
// try-style ~2.5x faster than setjmp-style on the normal path). One
// cross-domain call per iteration from the default domain into
// "bench_callee" (recovery_callee.c), under the backend DIPC_BACKEND picks:
//   recovery/none    the same proxy called without a caller stub;
//   recovery/setjmp  through the stub built with -fdipc-recovery=setjmp;
//   recovery/try     through the stub built with -fdipc-recovery=try;
//   recovery/*_fault the callee crashes (SIGSEGV) every call and the stub
//                    returns 0 with dipc_errno == DIPC_EFAULT.
// The loader does not exist yet, so this program does its job for its one
// callee domain: it moves the domain's pages, registers its entries, requests
// their proxies, fills the import slot, and routes SIGSEGV to the runtime.
#include "recovery_entries.h"
#include "recovery_records.h"

#include <benchmark/benchmark.h>
#include <dipc/rt.h>

#include <signal.h>
#include <sys/mman.h>

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
  // Why a callee crash cannot be recovered, "" when it can.
  const std::string &fault_error() const { return fault_error_; }

private:
  CalleeDomain() {
    const dom_t self = dom_default();
    const dom_t callee = dom_create();
    if (!Check(self, "dom_default") || !Check(callee, "dom_create"))
      return;
    char *begin[3], *end[3];
    if (bench_domain_pages("bench_callee", begin, end) != 0) {
      error_ = "no domain record for bench_callee";
      return;
    }
    for (int kind = 0; kind < 3; ++kind)
      if (end[kind] > begin[kind] &&
          !Check(dom_remap(callee, self, begin[kind], end[kind] - begin[kind]),
                 "dom_remap of bench_callee"))
        return;
    struct bench_entry_info info[2];
    if (bench_find_entry("recovery_increment", &info[0]) != 0 ||
        bench_find_entry("recovery_crash", &info[1]) != 0) {
      error_ = "entry or import records of bench_callee missing";
      return;
    }
    struct dipc_entry_desc entries[2];
    for (int i = 0; i < 2; ++i)
      entries[i] = {info[i].callee_stub, info[i].signature,
                    info[i].callee_policy};
    const entry_t entry = entry_register(callee, 2, entries);
    if (!Check(entry, "entry_register"))
      return;
    for (int i = 0; i < 2; ++i)
      entries[i].policy = info[i].caller_policy;
    const dom_t proxies = entry_request(entry, 2, entries);
    if (!Check(proxies, "entry_request") ||
        !Check(grant_create(self, proxies), "grant_create (proxies)"))
      return;
    for (int i = 0; i < 2; ++i)
      *info[i].slot = entries[i].address;
    recovery_increment_proxy = reinterpret_cast<int (*)(int)>(entries[0].address);
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
    if (alternate.ss_sp == MAP_FAILED || sigaltstack(&alternate, nullptr) != 0 ||
        sigaction(SIGSEGV, &action, nullptr) != 0)
      fault_error_ = "cannot install the SIGSEGV handler";
  }

  bool Check(long result, const char *what) {
    if (result >= 0)
      return true;
    error_ = std::string(what) + " failed with -" + std::to_string(-result);
    return false;
  }

  std::string error_, fault_error_;
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

void FaultPath(benchmark::State &state, int (*crash)(int)) {
  const CalleeDomain &domain = CalleeDomain::Get();
  const std::string &error =
      domain.error().empty() ? domain.fault_error() : domain.error();
  if (!error.empty()) {
    state.SkipWithError(error.c_str());
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
