// dipc_call.cc - dIPC between two domains of one process (paper Figure 5
// "dIPC", Figure 6), run under dipc-run: the default domain calls entries
// of domain "bench_callee" through the compiler's caller stubs, the
// runtime's proxies and the callee stubs, with the Low and High policies of
// domain_entries.h, under the backend dipc-run selects (mpk or none).
// Arguments of the sweep are passed by reference: the caller writes them in
// its own memory, which the callee domain may read.
// errno/read reads dipc_errno as compiled code does (through the runtime
// vector: the fast path when the kernel enables FSGSBASE, the gate
// otherwise); errno/gate calls the gate variant directly.
// stack/lend is the Low call from a caller that lends a local buffer (on
// the unsafe stack, as -fdipc code keeps escaping locals); stack/lend_own_
// stack is the same caller built with its buffer on its own stack.
// Under DIPC_SHARED_STACKS=1 (`none` only) the proxies do not switch
// stacks, as before stacks were per domain: bench/run-programs.sh runs this
// program so once more, to measure the switch.
#include "argument.h"
#include "count_calls.h"
#include "domain_entries.h"
#include "heap_entries.h"

#include <benchmark/benchmark.h>
#include <dipc/abi.h>
#include <dipc/rt.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

extern "C" int *__dipc_errno_location_gate(void);

namespace dipc_bench {
namespace {

void DomainCall(benchmark::State &state, int (*call)(int)) {
  if (countCalls(state, call) &&
      (dipc_current_domain() != 0 || dipc_kcs_depth() != 0))
    state.SkipWithError("the calls did not return to the default domain");
}

// heap/own and heap/libc: HEAP_PAIRS_PER_CALL malloc/free pairs of
// state.range(0) bytes per call into a domain with its own heap and one
// using glibc's; items are pairs.
void HeapChurn(benchmark::State &state,
               std::uint64_t (*churn)(unsigned, std::size_t)) {
  const auto size = static_cast<std::size_t>(state.range(0));
  for (auto _ : state)
    if (churn(HEAP_PAIRS_PER_CALL, size) != HEAP_PAIRS_PER_CALL) {
      state.SkipWithError("a block did not come from the heap expected");
      return;
    }
  state.SetItemsProcessed(state.iterations() * HEAP_PAIRS_PER_CALL);
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

using ErrnoLocation = int *(*)(void);

// What the dipc_errno macro of dipc.h calls: the runtime vector's entry.
ErrnoLocation VectorErrnoLocation() {
  return *reinterpret_cast<const ErrnoLocation *>(
      static_cast<std::uintptr_t>(DIPC_VECTOR_ERRNO_LOCATION));
}

// callback/qsort_*: one sort of SORT_INTS_MAX ints a call; the first
// call's checksum must be the default domain's own.
void SortCall(benchmark::State &state,
              std::uint64_t (*sort)(unsigned, std::size_t)) {
  if (sort(1, SORT_INTS_MAX) != default_sort_ints(1, SORT_INTS_MAX)) {
    state.SkipWithError("the sort's checksum differs from the default "
                        "domain's");
    return;
  }
  unsigned seed = 2;
  for (auto _ : state)
    benchmark::DoNotOptimize(sort(seed++, SORT_INTS_MAX));
  state.SetItemsProcessed(state.iterations());
}

void ErrnoRead(benchmark::State &state, bool gate) {
  const ErrnoLocation location =
      gate ? __dipc_errno_location_gate : VectorErrnoLocation();
  int *const expected = __dipc_errno_location_gate();
  for (auto _ : state) {
    int *p = location();
    benchmark::DoNotOptimize(*p);
    if (p != expected) {
      state.SkipWithError("dipc_errno is not this thread's");
      break;
    }
  }
}

const bool registered = [] {
  benchmark::AddCustomContext("dipc_backend", dipc_backend());
  const char *shared = std::getenv("DIPC_SHARED_STACKS");
  const bool shared_stacks = shared && !std::strcmp(shared, "1");
  benchmark::AddCustomContext("dipc_stacks",
                              shared_stacks ? "shared" : "per domain");
  benchmark::AddCustomContext(
      "dipc_errno_read",
      VectorErrnoLocation() != __dipc_errno_location_gate ? "fast path"
                                                          : "gate");
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
  benchmark::RegisterBenchmark("stack/lend", DomainCall, dipc_lend_call)
      ->UseRealTime();
  benchmark::RegisterBenchmark("stack/lend_own_stack", DomainCall,
                               dipc_lend_call_own_stack)
      ->UseRealTime();
  for (std::int64_t size : {32, 1024, 16384, 262144}) {
    benchmark::RegisterBenchmark("heap/own", HeapChurn, heap_own_call)
        ->Arg(size);
    benchmark::RegisterBenchmark("heap/libc", HeapChurn, heap_libc_call)
        ->Arg(size);
  }
  benchmark::RegisterBenchmark("callback/qsort_default", SortCall,
                               default_sort_ints)
      ->UseRealTime();
  benchmark::RegisterBenchmark("callback/qsort_domain", SortCall,
                               dipc_sort_call)
      ->UseRealTime();
  benchmark::RegisterBenchmark("errno/read", ErrnoRead, false)->UseRealTime();
  benchmark::RegisterBenchmark("errno/gate", ErrnoRead, true)->UseRealTime();
  return true;
}();

} // namespace
} // namespace dipc_bench
