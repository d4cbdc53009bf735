#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs every
# test (the lit suite under test/). Ends with "N passed, N failed".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${DIPC_BUILD_DIR:-$root/build}
lit=/usr/lib/llvm-19/build/utils/lit/lit.py

bash "$root/scripts/bootstrap.sh"
bash "$root/scripts/build.sh"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
python3 "$lit" -sv --time-tests "$build/test" "$@" | tee "$log" || status=$?

count() { sed -nE "s/^ *$1: +([0-9]+).*/\\1/p" "$log" | head -n1; }
passed=$(( $(count Passed || true) + 0 ))
failed=$(( $(count Failed || true) + $(count Unresolved || true) + $(count 'Timed Out' || true) + 0 ))
unsupported=$(( $(count Unsupported || true) + 0 ))
echo "lit: $passed passed, $failed failed, $unsupported skipped"
exit "$status"
