// breakdown.cc - what each part of a dIPC call costs (cf. the paper's
// Figure 2, for dIPC instead of IPC): the Low and High calls of
// dipc_call.cc taken apart by calling their inner parts directly, in the
// same process and under the same backend:
//   breakdown/<policy>/callee_stub  the entry's callee stub, through a
//                                   function pointer: no proxy (no checks,
//                                   KCS, stack or domain switch)
//   breakdown/<policy>/proxy        the proxy the caller stub calls, through
//                                   a function pointer: proxy and callee
//                                   stub, no caller stub
//   breakdown/xchg                  one locked exchange with memory, alone:
//                                   the proxy publishes the image of the
//                                   domain it switches to with one on the
//                                   way in and one on the way out
// bench/report.py subtracts, per backend: callee stub = callee_stub −
// baseline/indirect_call; proxy = proxy − callee_stub; caller stub =
// dipc/<policy> − proxy; and, with the run under DIPC_SHARED_STACKS=1
// (`none` only), the proxy's stack switch. Nothing here changes the
// runtime: the parts are the ones every call runs.
#include "count_calls.h"
#include "domain_entries.h"
#include "records.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

namespace dipc_bench {
namespace {

using Call = int (*)(int);

struct Parts {
  Call callee_stub = nullptr, proxy = nullptr;
  std::string error;
};

// The entry's callee stub from its record; its proxy from the caller's
// import slot, which the loader fills at the first call through the stub.
Parts FindParts(const char *entry, Call through_stub) {
  Parts parts;
  parts.callee_stub = reinterpret_cast<Call>(bench_entry_callee_stub(entry));
  void **slot = bench_import_slot(entry);
  if (parts.callee_stub == nullptr || slot == nullptr) {
    parts.error = std::string("no entry or import record for ") + entry;
    return parts;
  }
  if (through_stub(0) != 1) {
    parts.error = "the first call through the caller stub failed";
    return parts;
  }
  parts.proxy = reinterpret_cast<Call>(*slot);
  return parts;
}

const Parts &LowParts() {
  static const Parts parts = FindParts("domain_low_increment", dipc_low_call);
  return parts;
}

const Parts &HighParts() {
  static const Parts parts =
      FindParts("domain_high_increment", dipc_high_call);
  return parts;
}

void Part(benchmark::State &state, const Parts &(*parts)(), Call Parts::*part) {
  const Parts &p = parts();
  if (!p.error.empty()) {
    state.SkipWithError(p.error.c_str());
    return;
  }
  Call call = p.*part;
  benchmark::DoNotOptimize(call);
  countCalls(state, call);
}

void Xchg(benchmark::State &state) {
  alignas(64) std::uint32_t word = 0;
  std::uint32_t value = 0;
  for (auto _ : state) {
    ++value;
    std::uint32_t old = value;
    __asm__ volatile("xchg %0, %1" : "+r"(old), "+m"(word) : : "memory");
    benchmark::DoNotOptimize(old);
  }
  if (word != value)
    state.SkipWithError("the exchange did not store");
}

const bool registered = [] {
  benchmark::RegisterBenchmark("breakdown/low/callee_stub", Part, LowParts,
                               &Parts::callee_stub)
      ->UseRealTime();
  benchmark::RegisterBenchmark("breakdown/low/proxy", Part, LowParts,
                               &Parts::proxy)
      ->UseRealTime();
  benchmark::RegisterBenchmark("breakdown/high/callee_stub", Part, HighParts,
                               &Parts::callee_stub)
      ->UseRealTime();
  benchmark::RegisterBenchmark("breakdown/high/proxy", Part, HighParts,
                               &Parts::proxy)
      ->UseRealTime();
  benchmark::RegisterBenchmark("breakdown/xchg", Xchg)->UseRealTime();
  return true;
}();

} // namespace
} // namespace dipc_bench
