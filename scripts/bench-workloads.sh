#!/usr/bin/env bash
# What the instrumentation costs real programs (docs/benchmarks.md,
# "Workloads"): SQLite 10,000 inserts, zlib compressing 10 MiB, a Lua
# script, each built plain, with -fdipc (run under --backend=none) and with
# -fdipc -fdipc-sfi (under --backend=sfi; when dipc-clang has the flag).
# Fetches the sources (crates.io, pinned sha256), builds, runs every
# program DIPC_WORKLOAD_ROUNDS times (default 3) interleaved, each time
# timing at least DIPC_WORKLOAD_RUNS runs (default 3) and at least
# DIPC_WORKLOAD_MIN_MS milliseconds of runs (default 300) after one
# warm-up run, and writes
# bench/results/<machine>-workloads.md (medians and ratios of this run)
# and the raw samples, bench/results/<machine>/workloads.jsonl.
#
#   bash scripts/bench-workloads.sh
#
# Exits nonzero when a program fails, or when the builds disagree on a
# workload's result; the report is written anyway and says so.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export DIPC_BUILD_DIR=${DIPC_BUILD_DIR:-$root/build}
build=$DIPC_BUILD_DIR
rounds=${DIPC_WORKLOAD_ROUNDS:-3}
runs=${DIPC_WORKLOAD_RUNS:-3}
min_ms=${DIPC_WORKLOAD_MIN_MS:-300}

python3 "$root/examples/sqlite-domain/fetch.py" >/dev/null
python3 "$root/bench/workloads/fetch.py" >/dev/null
bash "$root/scripts/build.sh"
cmake --build "$build" --target dipc-workloads

machine=$(bash "$root/bench/machine.sh")
results=$root/bench/results
raw=$results/$machine
mkdir -p "$raw"
samples=$raw/workloads.jsonl
: >"$samples"
dir=$build/bench/workloads
status=0

# launcher BUILD: how a build's programs run.
launcher() {
  case $1 in
    plain) ;;
    dipc) echo "$build/bin/dipc-run --backend=none --" ;;
    sfi) echo "$build/bin/dipc-run --backend=sfi --" ;;
  esac
}

for ((round = 1; round <= rounds; round++)); do
  for workload in sqlite zlib lua; do
    for variant in plain dipc sfi; do
      program=$dir/dipc-workload-$workload-$variant
      [[ -x $program ]] || continue
      echo "bench-workloads: round $round/$rounds: $workload ($variant)" >&2
      rc=0
      # shellcheck disable=SC2046 # the launcher's words
      $(launcher "$variant") "$program" --runs="$runs" --min-ms="$min_ms" --warmup=1 \
        >>"$samples" 2>"$raw/workload-stderr.txt" || rc=$?
      if ((rc != 0)); then
        cat "$raw/workload-stderr.txt" >&2
        printf '{"workload": "%s", "build": "%s", "error": "exit status %s"}\n' \
          "$workload" "$variant" "$rc" >>"$samples"
        status=1
      fi
    done
  done
done
rm -f "$raw/workload-stderr.txt"

python=/usr/bin/python3
[[ -x $python ]] || python=python3
"$python" "$root/bench/workloads/report.py" --machine "$machine" \
  --not-built "$dir/not-built.txt" --note "${DIPC_BENCH_NOTE:-}" \
  --out "$results/$machine-workloads.md" "$samples" || status=$?
exit "$status"
