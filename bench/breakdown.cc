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
//                                   the proxy of `mpk` and `none`
//                                   publishes the image of the domain it
//                                   switches to with one on the way in and
//                                   one on the way out (`sfi`'s does not)
//   breakdown/ladder/<n>            the proxy's work part by part, a model
//                                   of rt/gate.S's template calling the
//                                   plain callee (proxy_ladder.S), rung n
//                                   doing rungs 0..n's parts
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
#include <cstring>
#include <string>

#include "callee.h"
#include "layout.h" // rt/: the runtime structures the model mirrors

// The model's state and constants (proxy_ladder.S reads them): a thread
// state of the runtime's layout, its KCS, the callee domain's stack, the
// caller's APL column, the image tables; the calls are from domain 0 to
// domain 1.
extern "C" {
int bench_ladder_0(int), bench_ladder_1(int), bench_ladder_2(int),
    bench_ladder_3(int), bench_ladder_4(int), bench_ladder_5(int);
unsigned char *bench_ladder_state;
std::uintptr_t bench_ladder_lo, bench_ladder_hi;
std::uint64_t bench_ladder_apl_stride, bench_ladder_zero;
const std::uint8_t *bench_ladder_apl_col;
int (*bench_ladder_callee)(int);
const std::uint32_t *bench_ladder_rw_d, *bench_ladder_ro_d,
    *bench_ladder_valid_d, *bench_ladder_rw_base, *bench_ladder_ro_base,
    *bench_ladder_valid_base;
}

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

// rt/layout.h's offsets the model's state needs set (the rest stay 0).
constexpr std::size_t kStSelf = ST_SELF, kStFsbase = ST_FSBASE,
                      kStKcsTop = ST_KCS_TOP, kStKcsLimit = ST_KCS_LIMIT,
                      kStKcsBase = ST_KCS_BASE, kStBaseLo = ST_BASE_LO,
                      kStBaseHi = ST_BASE_HI, kStDstacks = ST_DSTACKS,
                      kDsLo = DS_LO, kDsHi = DS_HI, kDsCur = DS_CUR,
                      kDsSize = DS_SIZE, kKcsEntries = 16,
                      kKcsEntrySize = K_SIZE, kKcsOff = RT_KCS_OFF,
                      kStateSize = RT_THREAD_STRIDE;

void SetUpLadder() {
  alignas(4096) static unsigned char state[kStateSize];
  // Where the runtime has it: its page offset decides what aliases.
  unsigned char *const kcs = state + kKcsOff;
  alignas(64) static unsigned char dstacks[2 * kDsSize];
  alignas(64) static unsigned char callee_stack[1 << 16];
  static const std::uint8_t apl_col[1] = {1}; // DIPC_PERM_CALL
  static const std::uint32_t rw[2] = {0x55555554, 0x55555550},
                             ro[2] = {0x55555554, 0x55555550},
                             valid[2] = {1, 1};
  auto put = [](unsigned char *at, std::size_t offset, std::uint64_t v) {
    std::memcpy(at + offset, &v, sizeof v);
  };
  std::uintptr_t fs;
  __asm__("mov %%fs:0, %0" : "=r"(fs));
  put(state, kStSelf, reinterpret_cast<std::uintptr_t>(state));
  put(state, kStFsbase, fs);
  put(state, kStKcsTop, reinterpret_cast<std::uintptr_t>(kcs));
  put(state, kStKcsBase, reinterpret_cast<std::uintptr_t>(kcs));
  put(state, kStKcsLimit,
      reinterpret_cast<std::uintptr_t>(kcs + kKcsEntries * kKcsEntrySize));
  put(state, kStBaseLo, 0); // the caller's stack: anywhere
  put(state, kStBaseHi, ~std::uint64_t{0});
  put(state, kStDstacks, reinterpret_cast<std::uintptr_t>(dstacks));
  const auto stack = reinterpret_cast<std::uintptr_t>(callee_stack);
  put(dstacks + kDsSize, kDsLo, stack);
  put(dstacks + kDsSize, kDsHi, stack + sizeof callee_stack);
  put(dstacks + kDsSize, kDsCur, stack + sizeof callee_stack);
  bench_ladder_state = state;
  bench_ladder_lo = reinterpret_cast<std::uintptr_t>(state);
  bench_ladder_hi = bench_ladder_lo + sizeof state;
  bench_ladder_apl_stride = 1024; // RT_MAX_DOMAINS
  bench_ladder_apl_col = apl_col;
  bench_ladder_callee = bench_increment;
  bench_ladder_rw_d = &rw[1];
  bench_ladder_ro_d = &ro[1];
  bench_ladder_valid_d = &valid[1];
  bench_ladder_rw_base = rw;
  bench_ladder_ro_base = ro;
  bench_ladder_valid_base = valid;
}

void Ladder(benchmark::State &state, Call rung) {
  static const bool set_up = (SetUpLadder(), true);
  (void)set_up;
  countCalls(state, rung);
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
  const Call rungs[] = {bench_ladder_0, bench_ladder_1, bench_ladder_2,
                        bench_ladder_3, bench_ladder_4, bench_ladder_5};
  for (int i = 0; i < 6; ++i)
    benchmark::RegisterBenchmark(
        ("breakdown/ladder/" + std::to_string(i)).c_str(), Ladder, rungs[i])
        ->UseRealTime();
  return true;
}();

} // namespace
} // namespace dipc_bench
