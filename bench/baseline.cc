// baseline.cc - the baselines every figure is a ratio to, linked into every
// benchmark program so that ratios always compare numbers from one run:
// a direct and an indirect function call, an empty system call (getppid),
// and the function-call baseline of the argument-size sweep.
#include "argument.h"
#include "callee.h"
#include "count_calls.h"

#include <benchmark/benchmark.h>

#include <unistd.h>

namespace {

void FunctionCall(benchmark::State &state) {
  countCalls(state, [](int x) { return bench_increment(x); });
}

void IndirectCall(benchmark::State &state) {
  int (*callee)(int) = bench_increment;
  benchmark::DoNotOptimize(callee); // the compiler no longer knows the target
  countCalls(state, callee);
}

void EmptySyscall(benchmark::State &state) {
  const pid_t parent = getppid();
  for (auto _ : state) {
    pid_t result = getppid(); // glibc does not cache it: one syscall each
    benchmark::DoNotOptimize(result);
    if (result != parent) {
      state.SkipWithError("getppid returned another pid");
      break;
    }
  }
}

// Caller writes the argument, callee reads it: what every IPC figure of the
// sweep adds its cost to (paper Figure 6).
void FunctionCallWithArgument(benchmark::State &state) {
  alignas(64) static unsigned char argument[dipc_bench::kMaxArgumentBytes];
  const auto size = static_cast<std::size_t>(state.range(0));
  dipc_bench::ArgumentPattern pattern;
  for (auto _ : state) {
    const unsigned char fill = pattern.Next();
    __builtin_memset(argument, fill, size);
    benchmark::ClobberMemory();
    const std::uint64_t sum = bench_sum_bytes(argument, size);
    if (sum != dipc_bench::ArgumentPattern::ExpectedSum(fill, size)) {
      state.SkipWithError("the callee read a wrong argument");
      break;
    }
  }
  state.SetBytesProcessed(state.iterations() * state.range(0));
}

BENCHMARK(FunctionCall)->Name("baseline/function_call")->UseRealTime();
BENCHMARK(IndirectCall)->Name("baseline/indirect_call")->UseRealTime();
BENCHMARK(EmptySyscall)->Name("baseline/syscall_getppid")->UseRealTime();
BENCHMARK(FunctionCallWithArgument)
    ->Name("sweep/function_call")
    ->Apply(dipc_bench::ArgumentSizes)
    ->UseRealTime();

} // namespace
