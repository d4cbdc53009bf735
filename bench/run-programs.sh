#!/usr/bin/env bash
# Runs every built benchmark program once, each writing its JSON into OUTDIR;
# used by scripts/bench.sh (full suite) and scripts/bench-smoke.sh (CI).
#
#   bench/run-programs.sh BUILD_DIR OUTDIR [Google Benchmark flags...]
#
# Writes OUTDIR/<program>[-<backend>].json, OUTDIR/not-measured.txt (one
# line per group of figures that was not measured, and why) and
# OUTDIR/failed.txt (one line per run that failed: its name, exit status and
# the lines of its output that name the failure). Exits nonzero when a
# program fails or any benchmark reports an error.
#
# On a CPU without protection keys the `mpk` runs are not measured (times
# under the VM lane's emulation compare with nothing); with
# DIPC_BENCH_MPK_IN_VM=1 (the CI smoke pass) they run in the VM lane
# (scripts/vm.sh) all the same, to show that they work.
set -euo pipefail
build=$1
out=$2
shift 2
mkdir -p "$out"
: >"$out/not-measured.txt"
: >"$out/failed.txt"
status=0

# failed NAME HOW LOG: records a failed run in failed.txt.
failed() {
  echo "bench: $1 FAILED ($2)" >&2
  {
    echo "$1: $2"
    # The lines that name a failure, else the run's last lines.
    { grep -aiE 'error|fail|fault|segmentation|abort|killed|timed out|vm:' "$3" ||
      tail -n 8 "$3"; } | tail -n 20 | sed 's/^/  /'
  } >>"$out/failed.txt"
  status=1
}

# run NAME PROGRAM [LAUNCHER...]: one program, one process, one JSON.
run() {
  local name=$1 program=$2
  shift 2
  echo "bench: $name" >&2
  local log=$out/$name.log rc=0
  "$@" "$build/bin/$program" "${flags[@]}" \
    --benchmark_out="$out/$name.json" --benchmark_out_format=json \
    >"$log" 2>&1 || rc=$?
  cat "$log"
  [[ $rc == 0 ]] || failed "$name" "exit status $rc" "$log"
}

flags=("$@")
[[ -x "$build/bin/dipc-bench-ipc" ]] || {
  echo "bench: no benchmark programs in $build (configured with -DDIPC_BENCHMARKS=OFF?)" >&2
  exit 1
}
root=$(cd "$(dirname "$0")/.." && pwd)
# DIPC_NO_PKU=1 hides the keys from the runtime (rt/backend.c): from us too.
host_has_pku() {
  [[ ${DIPC_NO_PKU:-0} != 1 ]] && grep -qw pku /proc/cpuinfo &&
    grep -qw ospke /proc/cpuinfo
}
# Programs that CMake could not build say why in not-built.txt.
[[ -f "$build/bench/not-built.txt" ]] &&
  cat "$build/bench/not-built.txt" >>"$out/not-measured.txt"

run ipc dipc-bench-ipc
# The dIPC programs run isolated, under the loader, with each backend.
for program in domains recovery sqlite; do
  [[ -x "$build/bin/dipc-bench-$program" ]] || continue
  run "$program-none" "dipc-bench-$program" "$build/bin/dipc-run" \
    --backend=none --
  if host_has_pku; then
    run "$program-mpk" "dipc-bench-$program" "$build/bin/dipc-run" \
      --backend=mpk --
  elif [[ ${DIPC_BENCH_MPK_IN_VM:-0} == 1 ]]; then
    run "$program-mpk" "dipc-bench-$program" bash "$root/scripts/vm.sh" \
      --rw "$build" --rw "$out" -- "$build/bin/dipc-run" --backend=mpk --
  else
    echo "dipc-bench-$program under mpk: no protection keys (this CPU has" \
      "none, or DIPC_NO_PKU=1 hides them; times in the VM lane's emulation" \
      "would compare with nothing)" \
      >>"$out/not-measured.txt"
  fi
done
# dIPC between processes (docs/cross-process.md; `none` only so far): the
# client calls the entries of a server started for it.
if [[ -x "$build/bin/dipc-bench-xproc" && -x "$build/bin/dipc-bench-xproc-server" ]]; then
  socket=$(mktemp -u /tmp/dipc-bench-xproc.XXXXXX)
  "$build/bin/dipc-run" --backend=none --listen="$socket" \
    "$build/bin/dipc-bench-xproc-server" >"$out/xproc-server.log" 2>&1 &
  server=$!
  for _ in $(seq 100); do
    [[ -S $socket ]] && break
    sleep 0.1
  done
  if [[ -S $socket ]]; then
    run xproc-none dipc-bench-xproc "$build/bin/dipc-run" --backend=none \
      --connect=bench_proc="$socket" --
  else
    failed xproc-server "did not listen" "$out/xproc-server.log"
  fi
  kill -TERM "$server" 2>/dev/null || true
  rc=0
  wait "$server" || rc=$?
  cat "$out/xproc-server.log"
  [[ $rc == 0 ]] || failed xproc-server "exit status $rc" "$out/xproc-server.log"
  rm -f "$socket"
fi
# The sfi builds (every -fdipc object also -fdipc-sfi) under `sfi`, which
# needs no protection keys. Not built when dipc-clang lacks -fdipc-sfi:
# not-built.txt says so.
for program in domains recovery; do
  [[ -x "$build/bin/dipc-bench-$program-sfi" ]] || continue
  run "$program-sfi" "dipc-bench-$program-sfi" "$build/bin/dipc-run" \
    --backend=sfi --
done
# What the proxies' stack switch costs: the same calls with proxies that do
# not switch (DIPC_SHARED_STACKS=1, as before stacks were per domain; only
# `none` offers them).
[[ -x "$build/bin/dipc-bench-domains" ]] &&
  run domains-none-shared-stacks dipc-bench-domains \
    env DIPC_SHARED_STACKS=1 "$build/bin/dipc-run" --backend=none --
exit "$status"
