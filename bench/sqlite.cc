// sqlite.cc - examples/sqlite-domain against the plain build, in one
// process (run under dipc-run): SQLite's amalgamation in domain db, called
// through the wrapper's entries, and the same wrapper and SQLite built
// without -fdipc (sqlite_workload.c).
//   sqlite/workload/{dipc,plain}  the example's whole run per iteration:
//                                 open, 10,000 inserts, 10,000 queries, close
//   sqlite/query/{dipc,plain}     one query of a 10,000-row table per
//                                 iteration: the per-entry-call cost is the
//                                 difference (the call itself plus SQLite)
#include <benchmark/benchmark.h>
#include <dipc/rt.h>

#include <vector>

extern "C" {
int sqlite_setup_dipc(long long rows);
long long sqlite_query_dipc(long long id);
long long sqlite_expected_dipc(long long id);
int sqlite_teardown_dipc(void);
int sqlite_workload_dipc(long long rows);
int sqlite_setup_plain(long long rows);
long long sqlite_query_plain(long long id);
long long sqlite_expected_plain(long long id);
int sqlite_teardown_plain(void);
int sqlite_workload_plain(long long rows);
}

namespace dipc_bench {
namespace {

constexpr long long kRows = 10000;

struct Build {
  int (*setup)(long long);
  long long (*query)(long long);
  long long (*expected)(long long);
  int (*teardown)(void);
  int (*workload)(long long);
};
const Build kDipc = {sqlite_setup_dipc, sqlite_query_dipc,
                     sqlite_expected_dipc, sqlite_teardown_dipc,
                     sqlite_workload_dipc};
const Build kPlain = {sqlite_setup_plain, sqlite_query_plain,
                      sqlite_expected_plain, sqlite_teardown_plain,
                      sqlite_workload_plain};

void Workload(benchmark::State &state, const Build *build) {
  for (auto _ : state) {
    if (build->workload(kRows) != 0) {
      state.SkipWithError("a query answered wrong, or SQLite failed");
      break;
    }
  }
  state.counters["rows"] = kRows;
}

void Query(benchmark::State &state, const Build *build) {
  if (build->setup(kRows) != 0) {
    state.SkipWithError("SQLite failed to open or fill the table");
    return;
  }
  std::vector<long long> want(kRows + 1);
  for (long long id = 1; id <= kRows; ++id)
    want[id] = build->expected(id);
  long long id = 0, wrong = 0;
  for (auto _ : state) {
    id = id % kRows + 1;
    long long got = build->query(id);
    wrong += got != want[id];
  }
  if (build->teardown() != 0 || wrong != 0)
    state.SkipWithError("a query answered wrong, or SQLite failed to close");
}

const bool registered = [] {
  benchmark::AddCustomContext("dipc_backend", dipc_backend());
  benchmark::RegisterBenchmark("sqlite/workload/dipc", Workload, &kDipc)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("sqlite/workload/plain", Workload, &kPlain)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("sqlite/query/dipc", Query, &kDipc)
      ->UseRealTime();
  benchmark::RegisterBenchmark("sqlite/query/plain", Query, &kPlain)
      ->UseRealTime();
  return true;
}();

} // namespace
} // namespace dipc_bench
