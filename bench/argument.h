// argument.h - the argument every call passes: its sizes (paper Figure 6:
// 1 B to 64 KiB) and the byte pattern the caller writes and checks.
#ifndef DIPC_BENCH_ARGUMENT_H
#define DIPC_BENCH_ARGUMENT_H

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>

namespace dipc_bench {

constexpr std::size_t kMaxArgumentBytes = 64 << 10;

// Registers the sweep 1, 4, 16, ..., 64 KiB as the benchmark's argument.
inline void ArgumentSizes(benchmark::internal::Benchmark *b) {
  b->RangeMultiplier(4)->Range(1, kMaxArgumentBytes)->ArgName("bytes");
}

// The caller fills the argument with one byte value that changes every call,
// so a callee that read stale bytes (or nothing) gives the wrong sum.
class ArgumentPattern {
public:
  unsigned char Next() {
    fill_ = static_cast<unsigned char>(fill_ % 251 + 1);
    return fill_;
  }
  static std::uint64_t ExpectedSum(unsigned char fill, std::size_t size) {
    return static_cast<std::uint64_t>(fill) * size;
  }

private:
  unsigned char fill_ = 0;
};

} // namespace dipc_bench

#endif // DIPC_BENCH_ARGUMENT_H
