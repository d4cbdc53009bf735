// dipc_call.cc - dIPC between two domains of one process (paper Figure 5
// "dIPC", Figure 6): the default domain calls entries of domain
// "bench_callee" through the compiler's caller stubs, the runtime's proxies
// and the callee stubs, with the Low and High policies of domain_entries.h,
// under the backend DIPC_BACKEND selects (mpk or none). The domain is loaded
// by hand (hand_loader.h). Arguments of the sweep are passed by reference:
// the caller writes them in an argument domain the callee may only read.
#include "argument.h"
#include "domain_entries.h"
#include "hand_loader.h"

#include <benchmark/benchmark.h>
#include <dipc/rt.h>

#include <sys/mman.h>

#include <cstring>
#include <string>

namespace dipc_bench {
namespace {

// The domain, its proxies and the argument buffer, set up once per process:
// the runtime's tables and the protection keys are finite.
class Domains {
public:
  static const Domains &Get() {
    static const Domains domains;
    return domains;
  }
  unsigned char *argument() const { return argument_; }
  const std::string &error() const { return error_; }

private:
  Domains() {
    const LoadedDomain loaded = LoadDomainByHand(
        "bench_callee", {"domain_low_increment", "domain_low_sum_bytes",
                         "domain_high_increment", "domain_high_sum_bytes"});
    if (!(error_ = loaded.error).empty())
      return;
    const dom_t arguments = dom_create();
    if (!(error_ = CheckHandle(arguments, "dom_create")).empty())
      return;
    void *memory = dom_mmap(arguments, nullptr, kMaxArgumentBytes,
                            PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!(error_ = CheckHandle(dipc_ptr_err(memory), "dom_mmap")).empty())
      return;
    argument_ = static_cast<unsigned char *>(memory);
    const dom_t readable = dom_copy(arguments, DIPC_PERM_READ);
    error_ = CheckHandle(readable, "dom_copy");
    if (error_.empty())
      error_ = CheckHandle(grant_create(loaded.self, arguments),
                           "grant_create (caller writes the argument)");
    if (error_.empty())
      error_ = CheckHandle(grant_create(loaded.callee, readable),
                           "grant_create (callee reads the argument)");
  }

  unsigned char *argument_ = nullptr;
  std::string error_;
};

void DomainCall(benchmark::State &state, int (*call)(int)) {
  const Domains &domains = Domains::Get();
  if (!domains.error().empty()) {
    state.SkipWithError(domains.error().c_str());
    return;
  }
  int x = 0;
  for (auto _ : state) {
    x = call(x);
    benchmark::DoNotOptimize(x);
  }
  if (static_cast<unsigned>(x) != static_cast<unsigned>(state.iterations()))
    state.SkipWithError("the callee did not run once per iteration");
  else if (dipc_current_domain() != 0 || dipc_kcs_depth() != 0)
    state.SkipWithError("the calls did not return to the default domain");
}

void DomainCallWithArgument(benchmark::State &state,
                            std::uint64_t (*call)(const unsigned char *,
                                                  std::size_t)) {
  const Domains &domains = Domains::Get();
  if (!domains.error().empty()) {
    state.SkipWithError(domains.error().c_str());
    return;
  }
  unsigned char *const argument = domains.argument();
  const auto size = static_cast<std::size_t>(state.range(0));
  ArgumentPattern pattern;
  for (auto _ : state) {
    const unsigned char fill = pattern.Next();
    std::memset(argument, fill, size);
    benchmark::ClobberMemory();
    if (call(argument, size) != ArgumentPattern::ExpectedSum(fill, size)) {
      state.SkipWithError("the callee read a wrong argument");
      break;
    }
  }
  state.SetBytesProcessed(state.iterations() * state.range(0));
}

const bool registered = [] {
  benchmark::AddCustomContext("dipc_backend", dipc_backend());
  benchmark::RegisterBenchmark("dipc/low", DomainCall, dipc_low_call)
      ->UseRealTime();
  benchmark::RegisterBenchmark("dipc/high", DomainCall, dipc_high_call)
      ->UseRealTime();
  benchmark::RegisterBenchmark("sweep/dipc_low", DomainCallWithArgument,
                               dipc_low_sum_bytes)
      ->Apply(ArgumentSizes)
      ->UseRealTime();
  benchmark::RegisterBenchmark("sweep/dipc_high", DomainCallWithArgument,
                               dipc_high_sum_bytes)
      ->Apply(ArgumentSizes)
      ->UseRealTime();
  return true;
}();

} // namespace
} // namespace dipc_bench
