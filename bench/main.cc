// main.cc - the main() of every benchmark program: Google Benchmark's, plus
// a nonzero exit status when any benchmark reported an error, so that the
// smoke pass (scripts/bench-smoke.sh) and the full suite fail loudly.
#include <benchmark/benchmark.h>

#include <csignal>
#include <cstdio>
#include <vector>

namespace {

// The console reporter, counting the runs that ended in SkipWithError.
class ErrorCountingReporter : public benchmark::ConsoleReporter {
public:
  void ReportRuns(const std::vector<Run> &runs) override {
    for (const Run &run : runs)
      if (run.error_occurred)
        ++errors_;
    ConsoleReporter::ReportRuns(runs);
  }
  int errors() const { return errors_; }

private:
  int errors_ = 0;
};

} // namespace

int main(int argc, char **argv) {
  // A peer that died must show up as an error from write(), not kill us.
  std::signal(SIGPIPE, SIG_IGN);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  ErrorCountingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  if (reporter.errors() > 0) {
    std::fprintf(stderr, "%s: %d benchmark(s) failed\n", argv[0],
                 reporter.errors());
    return 1;
  }
  return 0;
}
