// dipc_call.cc - dIPC between two domains of one process (paper Figure 5
// "dIPC", Figure 6): the default domain calls an entry of a callee domain
// through the proxy the runtime generated for it, under the backend that
// DIPC_BACKEND selects (mpk or none), with two policies:
//   Low:  no isolation property: domain switch, KCS and return path only;
//   High: mutual isolation: register integrity and confidentiality, stack
//         integrity and confidentiality.
// The entries are registered by hand with the runtime API (dipc/rt.h); the
// callee code is callee.c compiled again into the callee domain's pages.
// Arguments of the sweep are passed by reference: the caller writes them in
// an argument domain that the callee may read.
#include "argument.h"
#include "domain_callee.h"

#include <benchmark/benchmark.h>
#include <dipc/rt.h>

#include <sys/mman.h>

#include <cstring>
#include <string>

namespace dipc_bench {
namespace {

constexpr dipc_policy_t kLowPolicy = 0;
constexpr dipc_policy_t kHighPolicy = reg_integrity | reg_confidentiality |
                                      stack_integrity | stack_confidentiality;

struct Proxies {
  int (*increment)(int) = nullptr;
  std::uint64_t (*sum_bytes)(const unsigned char *, std::size_t) = nullptr;
};

// Domains, grants and proxies, created once per process: the runtime's
// tables and the protection keys are finite.
class Domains {
public:
  static const Domains &Get() {
    static const Domains domains;
    return domains;
  }
  const Proxies &proxies(dipc_policy_t policy) const {
    return policy == kHighPolicy ? high_ : low_;
  }
  unsigned char *argument() const { return argument_; }
  const std::string &error() const { return error_; }

private:
  Domains() {
    self_ = dom_default();
    callee_ = dom_create();
    if (!Check(self_, "dom_default") || !Check(callee_, "dom_create"))
      return;
    const std::size_t pages =
        bench_callee_pages_end - bench_callee_pages_begin;
    if (!Check(dom_remap(callee_, self_, bench_callee_pages_begin, pages),
               "dom_remap of the callee's pages"))
      return;
    // The argument lives in a domain of its own: the caller may write it,
    // the callee only read it.
    const dom_t arguments = dom_create();
    if (!Check(arguments, "dom_create"))
      return;
    void *memory = dom_mmap(arguments, nullptr, kMaxArgumentBytes,
                            PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!Check(dipc_ptr_err(memory), "dom_mmap of the argument"))
      return;
    argument_ = static_cast<unsigned char *>(memory);
    const dom_t readable = dom_copy(arguments, DIPC_PERM_READ);
    if (!Check(readable, "dom_copy") ||
        !Check(grant_create(self_, arguments), "grant_create (caller)") ||
        !Check(grant_create(callee_, readable), "grant_create (callee)"))
      return;
    if (Register(kLowPolicy, &low_))
      Register(kHighPolicy, &high_);
  }

  // Registers both callees with `policy` and requests their proxies.
  bool Register(dipc_policy_t policy, Proxies *out) {
    struct dipc_signature one_word = {}, pointer_and_size = {};
    one_word.int_args = 1;
    one_word.int_results = 1;
    pointer_and_size.int_args = 2;
    pointer_and_size.int_results = 1;
    struct dipc_entry_desc entries[2] = {
        {reinterpret_cast<void *>(domain_bench_increment), one_word, policy},
        {reinterpret_cast<void *>(domain_bench_sum_bytes), pointer_and_size,
         policy}};
    const entry_t entry = entry_register(callee_, 2, entries);
    if (!Check(entry, "entry_register"))
      return false;
    const dom_t proxy_domain = entry_request(entry, 2, entries);
    if (!Check(proxy_domain, "entry_request") ||
        !Check(grant_create(self_, proxy_domain), "grant_create (proxies)"))
      return false;
    if (entries[0].address == reinterpret_cast<void *>(domain_bench_increment)) {
      error_ = "entry_request returned the entry itself, not a proxy";
      return false;
    }
    out->increment = reinterpret_cast<int (*)(int)>(entries[0].address);
    out->sum_bytes =
        reinterpret_cast<std::uint64_t (*)(const unsigned char *, std::size_t)>(
            entries[1].address);
    return true;
  }

  bool Check(long result, const char *what) {
    if (result >= 0)
      return true;
    error_ = std::string(what) + " failed with -" + std::to_string(-result);
    return false;
  }

  dom_t self_ = -1, callee_ = -1;
  Proxies low_, high_;
  unsigned char *argument_ = nullptr;
  std::string error_;
};

void DomainCall(benchmark::State &state, dipc_policy_t policy) {
  const Domains &domains = Domains::Get();
  if (!domains.error().empty()) {
    state.SkipWithError(domains.error().c_str());
    return;
  }
  int (*const increment)(int) = domains.proxies(policy).increment;
  int x = 0;
  for (auto _ : state) {
    x = increment(x);
    benchmark::DoNotOptimize(x);
  }
  if (static_cast<unsigned>(x) != static_cast<unsigned>(state.iterations()))
    state.SkipWithError("the callee did not run once per iteration");
  else if (dipc_current_domain() != 0)
    state.SkipWithError("the call did not return to the default domain");
}

void DomainCallWithArgument(benchmark::State &state, dipc_policy_t policy) {
  const Domains &domains = Domains::Get();
  if (!domains.error().empty()) {
    state.SkipWithError(domains.error().c_str());
    return;
  }
  const auto sum_bytes = domains.proxies(policy).sum_bytes;
  unsigned char *const argument = domains.argument();
  const auto size = static_cast<std::size_t>(state.range(0));
  ArgumentPattern pattern;
  for (auto _ : state) {
    const unsigned char fill = pattern.Next();
    std::memset(argument, fill, size);
    benchmark::ClobberMemory();
    if (sum_bytes(argument, size) != ArgumentPattern::ExpectedSum(fill, size)) {
      state.SkipWithError("the callee read a wrong argument");
      break;
    }
  }
  state.SetBytesProcessed(state.iterations() * state.range(0));
}

const bool registered = [] {
  benchmark::AddCustomContext("dipc_backend", dipc_backend());
  benchmark::RegisterBenchmark("dipc/low", DomainCall, kLowPolicy)
      ->UseRealTime();
  benchmark::RegisterBenchmark("dipc/high", DomainCall, kHighPolicy)
      ->UseRealTime();
  benchmark::RegisterBenchmark("sweep/dipc_low", DomainCallWithArgument,
                               kLowPolicy)
      ->Apply(ArgumentSizes)
      ->UseRealTime();
  benchmark::RegisterBenchmark("sweep/dipc_high", DomainCallWithArgument,
                               kHighPolicy)
      ->Apply(ArgumentSizes)
      ->UseRealTime();
  return true;
}();

} // namespace
} // namespace dipc_bench
