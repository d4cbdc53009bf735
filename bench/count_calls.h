// count_calls.h - the measured loop of every one-call-per-iteration
// benchmark. Each callee returns its argument plus one, so after the loop x
// equals the iteration count only if every call really ran.
#ifndef DIPC_BENCH_COUNT_CALLS_H
#define DIPC_BENCH_COUNT_CALLS_H

#include <benchmark/benchmark.h>

// Inlined into each benchmark, so a lambda calling a function by name stays
// a direct call and a function pointer stays an indirect one.
template <typename Call>
inline bool countCalls(benchmark::State &state, Call call) {
  int x = 0;
  for (auto _ : state) {
    x = call(x);
    benchmark::DoNotOptimize(x);
  }
  if (static_cast<unsigned>(x) == static_cast<unsigned>(state.iterations()))
    return true;
  state.SkipWithError("the callee did not run once per iteration");
  return false;
}

#endif
