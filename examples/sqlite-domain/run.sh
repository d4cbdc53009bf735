#!/usr/bin/env bash
# Fetches SQLite (once, fetch.py), builds examples/sqlite-domain (SQLite's
# amalgamation, unchanged, in domain db; CMake builds it once the source is
# there) and runs it: the same results as the plain build, main stopped
# reading SQLite's heap, a crash inside sqlite3_step contained (steps.sh).
# Where this CPU has no protection keys the mpk steps run in a QEMU guest
# that has them (scripts/vm.sh).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${DIPC_BUILD_DIR:-$root/build}
out=$build/examples/sqlite-domain
bin=$build/bin

step() { printf '\n== %s\n' "$*"; }

step "fetch.py: SQLite 3.46.0's amalgamation (libsqlite3-sys 0.30.1 crate)"
DIPC_BUILD_DIR=$build python3 "$here/fetch.py" || exit 1
step "build (dipc-clang -fdipc -fdipc-domain=db -c sqlite3.c, the wrapper" \
  "db.c in db, main.c in the default domain; and the plain build)"
bash "$root/scripts/build.sh" >/dev/null || exit 1
[[ -x $out/sqlite-domain ]] ||
  { echo "run.sh: $out/sqlite-domain was not built" >&2; exit 1; }

step "dipc-readelf sqlite-domain: db owns SQLite's code, data and heap"
"$bin/dipc-readelf" "$out/sqlite-domain" | grep -v '^import' || exit 1

step "the plain build (no -fdipc)"
"$out/sqlite-domain-plain" || exit 1

status=0
if grep -qw pku /proc/cpuinfo && grep -qw ospke /proc/cpuinfo; then
  bash "$here/steps.sh" mpk "$bin" "$out" || status=1
else
  step "this CPU has no protection keys: the mpk steps run in a QEMU guest" \
    "whose CPU has them (scripts/vm.sh; boots in ~10 s)"
  (cd "$root" && bash scripts/vm.sh --rw "$build" -- bash "$here/steps.sh" \
    mpk "$bin" "$out") || status=1
fi
bash "$here/steps.sh" none "$bin" "$out" || status=1

if [[ $status -eq 0 ]]; then
  printf '\nsqlite-domain: every outcome was the one its backend promises\n'
else
  printf '\nsqlite-domain: FAILED: an outcome above is not the one its backend promises\n'
fi
exit "$status"
