#!/usr/bin/env bash
# Builds the libFuzzer targets of the validator and the ELF locating code
# (test/fuzz/) and runs each for SECONDS (default 30), starting from a seed
# corpus of real -fdipc binaries built here (the web-db example as a
# program, with the sfi checks and as a shared object, the crafted-record fixture, a plain
# program). A crash, leak or hang fails with the input kept in
# build/fuzz/artifacts; add it to test/fuzz/regressions/ with its fix.
#
#   bash scripts/fuzz.sh [SECONDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${DIPC_BUILD_DIR:-$root/build}
seconds=${1:-30}
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "usage: fuzz.sh [SECONDS]" >&2; exit 2; }

echo "fuzz: building the fuzzers"
cmake --build "$build" --target dipc-fuzzers >/dev/null

seeds=$build/fuzz/seeds
rm -rf "$seeds" && mkdir -p "$seeds"
cc="$build/bin/dipc-clang"
web=$root/examples/web-db
"$cc" -fdipc -O2 "$web/web.c" "$web/db.c" -o "$seeds/web-db"
"$cc" -fdipc -O2 -fPIC -shared "$web/db.c" -o "$seeds/db.so"
"$cc" -fdipc -fdipc-sfi -O2 "$web/web.c" "$web/db.c" -o "$seeds/web-db-sfi"
"$cc" -O2 "$web/web.c" "$web/db.c" -o "$seeds/plain"
/usr/lib/llvm-19/bin/yaml2obj "$root/test/metadata/Inputs/records.yaml" \
  -o "$seeds/records"
cp "$root"/test/fuzz/regressions/* "$seeds/" 2>/dev/null || true

status=0
for fuzzer in validate_fuzzer elf_image_fuzzer; do
  corpus=$build/fuzz/corpus-$fuzzer
  artifacts=$build/fuzz/artifacts/
  mkdir -p "$corpus" "$artifacts"
  echo "fuzz: $fuzzer for ${seconds}s"
  if ! "$build/bin/dipc-$fuzzer" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
      -artifact_prefix="$artifacts" "$corpus" "$seeds" \
      >"$build/fuzz/$fuzzer.log" 2>&1; then
    echo "fuzz: $fuzzer FAILED; its log: $build/fuzz/$fuzzer.log" >&2
    grep -E "ERROR|SUMMARY|Test unit written" "$build/fuzz/$fuzzer.log" >&2 || true
    status=1
    continue
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/fuzz/$fuzzer.log")
  cov=$(grep -o 'cov: [0-9]*' "$build/fuzz/$fuzzer.log" | tail -1)
  echo "fuzz: $fuzzer: ${runs:-?} inputs, $cov, no crash"
done
exit $status
