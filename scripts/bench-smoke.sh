#!/usr/bin/env bash
# CI smoke pass of the benchmarks (not a measurement): builds them and runs
# every benchmark of every program for a few milliseconds (the -sfi builds
# under --backend=sfi, when dipc-clang has -fdipc-sfi). The workloads of
# scripts/bench-workloads.sh are not built. Exits nonzero when
# a program fails or any benchmark reports an error (e.g. a callee that did
# not receive its argument). Writes no report.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${DIPC_BUILD_DIR:-$root/build}

bash "$root/scripts/bootstrap.sh"
bash "$root/scripts/build.sh"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# libbenchmark 1.7.1 takes plain seconds here (the "0.01s" form is 1.8+).
# Without protection keys here, the mpk runs go to the VM lane.
DIPC_BENCH_MPK_IN_VM=1 bash "$root/bench/run-programs.sh" "$build" "$out" \
  --benchmark_min_time=0.01 \
  >"$out/console.txt" 2>&1 || {
  cat "$out/console.txt"
  # Last, where a log's tail shows it: which runs failed, and how.
  echo "bench-smoke: FAILED:" >&2
  cat "$out/failed.txt" >&2
  exit 1
}
programs=$(ls "$out"/*.json | wc -l)
echo "bench-smoke: $programs program run(s) passed"
