// dipc_call.cc - dIPC between two domains of one process (paper Figure 5
// "dIPC", Figure 6), run under dipc-run: the default domain calls entries
// of domain "bench_callee" through the compiler's caller stubs, the
// runtime's proxies and the callee stubs, with the Low and High policies of
// domain_entries.h, under the backend dipc-run selects (mpk or none).
// Arguments of the sweep are passed by reference: the caller writes them in
// its own memory, which the callee domain may read.
#include "argument.h"
#include "count_calls.h"
#include "domain_entries.h"

#include <benchmark/benchmark.h>
#include <dipc/rt.h>

#include <cstring>

namespace dipc_bench {
namespace {

void DomainCall(benchmark::State &state, int (*call)(int)) {
  if (countCalls(state, call) &&
      (dipc_current_domain() != 0 || dipc_kcs_depth() != 0))
    state.SkipWithError("the calls did not return to the default domain");
}

void DomainCallWithArgument(benchmark::State &state,
                            std::uint64_t (*call)(const unsigned char *,
                                                  std::size_t)) {
  alignas(64) static unsigned char argument[kMaxArgumentBytes];
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
