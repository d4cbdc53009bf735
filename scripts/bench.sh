#!/usr/bin/env bash
# The benchmark command (docs/benchmarks.md): installs what is missing,
# builds, runs the full suite once (a few minutes; keep the machine idle) and
# regenerates bench/results/<machine>.md and its plots from that run.
#
#   bash scripts/bench.sh [extra Google Benchmark flags]
#
# DIPC_BENCH_MACHINE names the report (default <os><version>-<N>core-<host>),
# DIPC_BENCH_NOTE adds a line to it, DIPC_BUILD_DIR picks the build tree.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${DIPC_BUILD_DIR:-$root/build}

bash "$root/scripts/bootstrap.sh"
bash "$root/scripts/build.sh"

machine=$(bash "$root/bench/machine.sh")
results=$root/bench/results
raw=$results/$machine # this run's JSON, kept next to its report
# Only this script's results: scripts/bench-workloads.sh keeps its samples
# (workloads.jsonl) in the same folder.
mkdir -p "$raw"
rm -f "$raw"/*.json "$raw/not-measured.txt" "$raw/not-built.txt"

# 5 repetitions of at least 0.2 s each: mean and σ for every figure.
status=0
bash "$root/bench/run-programs.sh" "$build" "$raw" \
  --benchmark_min_time=0.2 --benchmark_repetitions=5 \
  --benchmark_report_aggregates_only=true "$@" || status=$?

missing=()
while IFS= read -r line; do
  [[ -n "$line" ]] && missing+=(--missing "$line")
done <"$raw/not-measured.txt"
# Debian's python3 has python3-matplotlib (scripts/bootstrap.sh).
python=/usr/bin/python3
[[ -x $python ]] || python=python3
"$python" "$root/bench/report.py" --machine "$machine" --out "$results" \
  --note "${DIPC_BENCH_NOTE:-}" "${missing[@]}" "$raw"/*.json || status=$?
exit "$status"
